import { BedrockAgentCoreControlClient } from '@aws-sdk/client-bedrock-agentcore-control';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentCoreCommand } from './agentcore-cli';
import { setupAgentCoreMemory } from './agentcore-memory-setup';
import { agentCoreIndexedKeys } from './agentcore-scope-mapping';
import { setupAgentCoreTestEnvironment, testMemoryId, testRegion } from './testing/agentcore-test-environment';

const environment = setupAgentCoreTestEnvironment();
const credentials = { accessKeyId: 'AKIDMEMPLANETEST', secretAccessKey: 'memplane-test-secret' };
const controlClient = () => new BedrockAgentCoreControlClient({ region: testRegion, credentials, maxAttempts: 1 });

function capture() {
  let stdout = '';
  let stderr = '';
  return { output: { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text) }, stdout: () => stdout, stderr: () => stderr };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('setupAgentCoreMemory', () => {
  it('declares every key the adapter filters on, after which a fully scoped list works where it failed before', async () => {
    environment.fake.indexedKeys.clear();
    const adapter = environment.createAdapter();
    const scope = { companyId: 'acme', agentId: 'planner', projectId: 'p1', issueId: 'i1', runId: 'r1', subjectId: 's1', sessionKey: 'k1', namespace: 'n1' };
    await adapter.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'deploys on tuesdays' }] });
    await expect(adapter.list({ bindingKey: 'default', scope })).rejects.toMatchObject({ statusCode: 400 });
    const result = await setupAgentCoreMemory({ memoryId: testMemoryId, client: controlClient() });
    expect(result).toMatchObject({ memoryId: testMemoryId, alreadyDeclared: [], added: [...agentCoreIndexedKeys], dryRun: false });
    expect([...environment.fake.indexedKeys]).toEqual(agentCoreIndexedKeys.map((key) => [key, 'STRING']));
    const page = await adapter.list({ bindingKey: 'default', scope });
    expect(page.items.map((item) => item.text)).toEqual(['deploys on tuesdays']);
  });

  it('is idempotent, keeps keys other applications declared, and accepts the memory ARN', async () => {
    environment.fake.indexedKeys.clear();
    environment.fake.indexedKeys.set('priority', 'NUMBER');
    environment.fake.indexedKeys.set('memplane.projectId', 'STRING');
    const arn = `arn:aws:bedrock-agentcore:us-east-1:123456789012:memory/${testMemoryId}`;
    const first = await setupAgentCoreMemory({ memoryId: arn, client: controlClient() });
    expect(first.alreadyDeclared).toEqual(['memplane.projectId']);
    expect(first.added).toHaveLength(agentCoreIndexedKeys.length - 1);
    const again = await setupAgentCoreMemory({ memoryId: testMemoryId, client: controlClient() });
    expect(again).toMatchObject({ added: [], alreadyDeclared: [...agentCoreIndexedKeys] });
    expect(environment.fake.indexedKeys.get('priority')).toBe('NUMBER');
    expect(environment.fake.indexedKeys.size).toBe(agentCoreIndexedKeys.length + 1);
  });

  it('declares nothing when the keys would not fit in the 10 a memory holds', async () => {
    environment.fake.indexedKeys.clear();
    for (let index = 0; index < 5; index += 1) environment.fake.indexedKeys.set(`app.key${index}`, 'STRING');
    await expect(setupAgentCoreMemory({ memoryId: testMemoryId, client: controlClient() })).rejects.toMatchObject({
      code: 'MEMORY_CONFIGURATION',
      message: expect.stringMatching(/has 5 indexed keys and the adapter needs 7 more/),
    });
    expect(environment.fake.indexedKeys.size).toBe(5);
  });

  it('refuses a memory that declares one of the keys with another type, and a memory that is not ACTIVE', async () => {
    environment.fake.indexedKeys.clear();
    environment.fake.indexedKeys.set('memplane.runId', 'NUMBER');
    await expect(setupAgentCoreMemory({ memoryId: testMemoryId, client: controlClient() })).rejects.toMatchObject({
      code: 'MEMORY_CONFIGURATION',
      message: expect.stringMatching(/memplane\.runId with a type other than STRING/),
    });
    environment.fake.indexedKeys.clear();
    environment.fake.memoryStatus = 'CREATING';
    await expect(setupAgentCoreMemory({ memoryId: testMemoryId, client: controlClient() })).rejects.toMatchObject({ code: 'MEMORY_CONFIGURATION' });
    expect(environment.fake.indexedKeys.size).toBe(0);
  });

  it('changes nothing on a dry run, and validates its settings', async () => {
    environment.fake.indexedKeys.clear();
    const result = await setupAgentCoreMemory({ memoryId: testMemoryId, client: controlClient(), dryRun: true });
    expect(result).toMatchObject({ dryRun: true, added: [...agentCoreIndexedKeys] });
    expect(environment.fake.indexedKeys.size).toBe(0);
    await expect(setupAgentCoreMemory({ memoryId: 'not a memory', client: controlClient() })).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
    await expect(setupAgentCoreMemory({ memoryId: testMemoryId, client: controlClient(), region: 'us-east-1' })).rejects.toMatchObject({ code: 'MEMORY_VALIDATION' });
  });

  it('maps a memory that does not exist to a non-retryable API call error', async () => {
    await expect(setupAgentCoreMemory({ memoryId: 'missing_memory-AbCdEf0123', client: controlClient() })).rejects.toMatchObject({
      code: 'MEMORY_API_CALL',
      statusCode: 404,
      isRetryable: false,
    });
  });
});

describe('memplane agentcore setup', () => {
  it('declares the keys with the SDK default credentials and says what it did', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', credentials.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
    environment.fake.indexedKeys.clear();
    const dry = capture();
    expect(await agentCoreCommand.run(['setup', '--memory-id', testMemoryId, '--region', testRegion, '--dry-run'], dry.output)).toBe(0);
    expect(dry.stdout()).toMatch(/would declare 7 indexed keys: memplane\.projectId/);
    expect(environment.fake.indexedKeys.size).toBe(0);
    const real = capture();
    expect(await agentCoreCommand.run(['setup', '--memory-id', testMemoryId, '--region', testRegion, '--json'], real.output)).toBe(0);
    expect(JSON.parse(real.stdout())).toMatchObject({ added: [...agentCoreIndexedKeys], dryRun: false });
    expect(environment.fake.indexedKeys.size).toBe(7);
  });

  it('answers usage and configuration errors with exit code 2, failures of AgentCore with 1, and --help with 0', async () => {
    const missing = capture();
    expect(await agentCoreCommand.run(['setup'], missing.output)).toBe(2);
    expect(missing.stderr()).toMatch(/--memory-id <id>' not specified/);
    expect(await agentCoreCommand.run(['teardown'], capture().output)).toBe(2);
    expect(await agentCoreCommand.run([], capture().output)).toBe(2);
    const invalid = capture();
    expect(await agentCoreCommand.run(['setup', '--memory-id', 'bad id', '--region', testRegion], invalid.output)).toBe(2);
    expect(invalid.stderr()).toMatch(/MEMORY_VALIDATION/);
    vi.stubEnv('AWS_ACCESS_KEY_ID', credentials.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', credentials.secretAccessKey);
    const absent = capture();
    expect(await agentCoreCommand.run(['setup', '--memory-id', 'missing_memory-AbCdEf0123', '--region', testRegion], absent.output)).toBe(1);
    expect(absent.stderr()).toMatch(/MEMORY_API_CALL.*404/);
    const help = capture();
    expect(await agentCoreCommand.run(['setup', '--help'], help.output)).toBe(0);
    expect(help.stdout()).toMatch(/--dry-run/);
  });
});
