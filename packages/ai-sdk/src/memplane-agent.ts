import { identifierSchema, parseInput } from '@memplane/core';
import type { MemoryCallContext, MemoryToolContext } from '@memplane/service';
import { z } from 'zod';
import { VERSION } from './version';

/**
 * Who the model works for, set by the host from its own authentication: never from the model.
 * Every tool call and every hook the middleware emits runs in this company, as this agent.
 */
export interface MemplaneAgent {
  /** The company. Nothing the model sends can change it. */
  companyId: string;
  /** The agent the tools act as and the turns belong to; resolution uses its binding override. */
  agentId: string;
  /** The run the calls belong to: logged on every operation and the provenance of captured turns. */
  runId?: string;
  /** The issue the agent works on; notes and captured turns record it. */
  issueId?: string;
  /** The project; notes and captured turns record it. */
  projectId?: string;
}

/** The zod schema of {@link MemplaneAgent}; unknown fields are refused. */
export const memplaneAgentSchema = z.strictObject({
  companyId: identifierSchema,
  agentId: identifierSchema,
  runId: identifierSchema.optional(),
  issueId: identifierSchema.optional(),
  projectId: identifierSchema.optional(),
});

/** The program calls come through, logged beside the actor on every operation (`details.client`). */
export interface MemplaneClient {
  /** Its name, such as your app's. */
  name: string;
  /** Its version. */
  version?: string;
}

/** The zod schema of {@link MemplaneClient}. */
export const memplaneClientSchema = z.strictObject({ name: identifierSchema, version: identifierSchema.optional() });

/** The client named when the host names none: this package. */
export const defaultClient: MemplaneClient = { name: '@memplane/ai-sdk', version: VERSION };

/** Validates a client; a bad one throws `MemoryValidationError` naming the field (`client.name`). */
export function parseClient(client: unknown): MemplaneClient {
  return client === undefined ? defaultClient : (parseInput(memplaneClientSchema, client, 'memplane client', 'client') as MemplaneClient);
}

/** Validates an agent; a bad one throws `MemoryValidationError` naming the field (`agent.companyId`). */
export function parseAgent(agent: unknown, path = 'agent'): MemplaneAgent {
  return parseInput(memplaneAgentSchema, agent, 'memplane agent', path) as MemplaneAgent;
}

/** The tool context of the service's agent tools: the agent acts as itself, inside its company. */
export function toolContextOf(agent: MemplaneAgent, client: MemplaneClient = defaultClient): MemoryToolContext {
  return {
    actor: { kind: 'agent', companyId: agent.companyId, agentId: agent.agentId },
    client,
    ...(agent.runId === undefined ? {} : { heartbeatRunId: agent.runId }),
    ...(agent.issueId === undefined ? {} : { issueId: agent.issueId }),
    ...(agent.projectId === undefined ? {} : { projectId: agent.projectId }),
  };
}

/** The runtime call context of the agent (no issue or project: those belong to requests). */
export function callContextOf(agent: MemplaneAgent, client: MemplaneClient = defaultClient): MemoryCallContext {
  const { issueId: _issue, projectId: _project, ...context } = toolContextOf(agent, client);
  return context;
}
