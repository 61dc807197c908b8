import type { BedrockAgentCoreClient } from '@aws-sdk/client-bedrock-agentcore';
import type { CursorCodec } from '@memplane/core';
import type { AgentCoreCall } from './agentcore-call';

/** What every operation of the AgentCore adapter works with. */
export interface AgentCoreAdapterContext {
  /** The SDK client, the user's or the adapter's own. */
  client: BedrockAgentCoreClient;
  /** The memory id or ARN. */
  memoryId: string;
  /** The one path every AgentCore call takes. */
  call: AgentCoreCall;
  /** Signs and checks list and job cursors. */
  cursors: CursorCodec;
  /** Whether record calls carry the namespace for IAM condition keys. */
  sendNamespaceWithRecordCalls: boolean;
}
