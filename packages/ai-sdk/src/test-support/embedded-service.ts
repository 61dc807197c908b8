import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnsupportedCapabilityError, type MemoryAdapter, type MemoryProviderDefinition } from '@memplane/core';
import { provider as markdownProvider } from '@memplane/markdown/provider';
import { provider as memoryProvider } from '@memplane/memory/provider';
import { createMemoryService, type MemoryService, type MemoryServiceSettings } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';

/** A company admin of the test company. */
export const acmeAdmin = { actor: { kind: 'company', companyId: 'acme', userId: 'admin', role: 'admin' } } as const;

/** The embedded default: the SQLite service store and markdown memory, both in a temporary folder. */
export async function createEmbeddedService(
  settings: MemoryServiceSettings = {},
  binding: { providerId?: string; postRunCapture?: boolean } = {},
): Promise<{ service: MemoryService; dataDirectory: string; cleanUp: () => Promise<void> }> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'memplane-ai-sdk-'));
  const service = await createMemoryService({
    store: createSqliteMemoryServiceStore({ filename: join(dataDirectory, 'memplane.db') }),
    dataDirectory,
    ...settings,
    // The service knows no provider of its own: markdown and memory as their packages describe them, then the test's.
    providers: [markdownProvider, memoryProvider, ...(settings.providers ?? [])],
  });
  const control = service.control(acmeAdmin);
  await control.createBinding({ key: 'default', providerId: binding.providerId ?? 'markdown', hooks: { postRunCapture: binding.postRunCapture ?? true } });
  await control.setTarget({ targetType: 'company' }, 'default');
  return {
    service,
    dataDirectory,
    cleanUp: async () => {
      await service.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** A provider whose every call waits on `release`, or throws from `fail`, for timeout and failure tests. */
export function createControllableProvider(providerId: string, behaviour: { query?: 'hang' | 'fail'; capture?: 'hang' | 'fail' }) {
  const waiting: Array<() => void> = [];
  const arrivals: Array<() => void> = [];
  const act = async (operation: 'query' | 'capture'): Promise<void> => {
    const mode = behaviour[operation];
    if (mode === 'hang') {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        arrivals.splice(0).forEach((arrived) => arrived());
      });
    }
    if (mode === 'fail') throw new Error(`${providerId} ${operation} is down`);
  };
  const unsupported = async (): Promise<never> => {
    throw new UnsupportedCapabilityError({ capability: 'optional surfaces', provider: providerId });
  };
  const adapter: MemoryAdapter = {
    specificationVersion: 'v1',
    key: providerId,
    capabilities: {},
    async capture() {
      await act('capture');
      return {};
    },
    async upsertRecords() {
      return { records: [] };
    },
    async query() {
      await act('query');
      return { snippets: [] };
    },
    async list() {
      return { items: [] };
    },
    async get() {
      return null;
    },
    async forget() {
      return {};
    },
    profile: unsupported,
    correct: unsupported,
    getExtractionJob: unsupported,
    listExtractionJobs: unsupported,
    retryExtractionJob: unsupported,
    explain: unsupported,
  };
  const factory: MemoryProviderDefinition = { providerId, description: 'Hangs or fails on demand (test only).', capabilities: {}, create: () => adapter };
  return {
    factory,
    /** Lets every waiting call go on. */
    release: () => waiting.splice(0).forEach((resolve) => resolve()),
    /** Resolves when a call is waiting (at once if one already is). */
    waitingCall: () => new Promise<void>((resolve) => (waiting.length > 0 ? resolve() : arrivals.push(resolve))),
  };
}
