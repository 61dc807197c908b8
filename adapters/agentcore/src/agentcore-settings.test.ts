import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createAgentCoreAdapter } from './agentcore-adapter';
import { resolveAgentCoreSettings } from './agentcore-settings';
import { createTestClient, testMemoryId } from './testing/agentcore-test-environment';

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return MemoryValidationError.isInstance(error) ? error.field : `not a validation error: ${String(error)}`;
  }
  return undefined;
}

describe('AgentCore adapter settings', () => {
  it('applies the defaults', () => {
    const resolved = resolveAgentCoreSettings({ memoryId: testMemoryId, region: 'eu-west-1' }, {});
    expect(resolved).toMatchObject({
      memoryId: testMemoryId,
      region: 'eu-west-1',
      timeoutMs: 30_000,
      retry: {},
      sendNamespaceWithRecordCalls: true,
      silenceNodeVersionWarning: false,
    });
  });

  it('accepts a memory ARN and takes the region from AWS_REGION, then AWS_DEFAULT_REGION', () => {
    const arn = `arn:aws:bedrock-agentcore:us-west-2:123456789012:memory/${testMemoryId}`;
    expect(resolveAgentCoreSettings({ memoryId: arn }, { AWS_REGION: 'us-west-2' }).region).toBe('us-west-2');
    expect(resolveAgentCoreSettings({ memoryId: arn }, { AWS_DEFAULT_REGION: 'ap-south-1' }).region).toBe('ap-south-1');
  });

  it('refuses bad settings with a validation error naming the setting', () => {
    expect(fieldOf(() => resolveAgentCoreSettings({ memoryId: 'not a memory' }, {}))).toBe('settings.memoryId');
    expect(fieldOf(() => resolveAgentCoreSettings({ memoryId: testMemoryId, region: 'Mars' }, {}))).toBe('settings.region');
    expect(fieldOf(() => resolveAgentCoreSettings({ memoryId: testMemoryId, region: 'us-east-1', timeoutMs: 0 }, {}))).toBe('settings.timeoutMs');
    expect(fieldOf(() => resolveAgentCoreSettings({ memoryId: testMemoryId, region: 'us-east-1', retry: { maxRetries: -1 } }, {}))).toBe('settings.retry.maxRetries');
    expect(fieldOf(() => resolveAgentCoreSettings({ memoryId: testMemoryId, region: 'us-east-1', cursorSecret: 'short' }, {}))).toBe('settings.cursorSecret');
    expect(fieldOf(() => resolveAgentCoreSettings({ memoryId: testMemoryId, client: {} as never }, {}))).toBe('settings.client');
    expect(fieldOf(() => resolveAgentCoreSettings({ memoryId: testMemoryId, region: 'us-east-1', unknown: true } as never, {}))).toBe('settings.unknown');
  });

  it('refuses client settings beside a client of your own, so none is silently ignored', () => {
    const client = createTestClient();
    expect(fieldOf(() => resolveAgentCoreSettings({ memoryId: testMemoryId, client, region: 'us-east-1' }, {}))).toBe('settings.region');
    expect(fieldOf(() => resolveAgentCoreSettings({ memoryId: testMemoryId, client, endpoint: 'https://proxy.example.com' }, {}))).toBe('settings.endpoint');
    expect(resolveAgentCoreSettings({ memoryId: testMemoryId, client }, {}).client).toBe(client);
  });

  it('needs a region when it builds the client', () => {
    expect(() => resolveAgentCoreSettings({ memoryId: testMemoryId }, {})).toThrow(MemoryConfigurationError);
  });

  it('silences the SDK Node version warning only when asked to', () => {
    const variable = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';
    const before = process.env[variable];
    try {
      delete process.env[variable];
      createAgentCoreAdapter({ memoryId: testMemoryId, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
      expect(process.env[variable]).toBeUndefined();
      createAgentCoreAdapter({ memoryId: testMemoryId, client: createTestClient(), silenceNodeVersionWarning: true });
      expect(process.env[variable]).toBeUndefined();
      createAgentCoreAdapter({ memoryId: testMemoryId, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, silenceNodeVersionWarning: true });
      expect(process.env[variable]).toBe('true');
    } finally {
      if (before === undefined) delete process.env[variable];
      else process.env[variable] = before;
    }
  });
});
