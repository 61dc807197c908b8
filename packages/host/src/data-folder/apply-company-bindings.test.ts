import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryApiCallError, MemoryNotFoundError } from '@memplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provider as markdownProvider } from '@memplane/markdown/provider';
import { createMemoryService, type MemoryCallContext, type MemoryService } from '@memplane/service';
import { ensureDefaultMarkdownBinding } from './apply-company-bindings';

let folder: string;
let service: MemoryService;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-default-binding-'));
  service = await createMemoryService({ dataDirectory: folder, providers: [markdownProvider] });
});
afterEach(async () => {
  await service.close();
  await rm(folder, { recursive: true, force: true });
});

/** The service as a client of `memplane serve` sees it: listing the bindings of a company the server does not know fails with `failure`. */
const throughServer = (failure: Error) => ({
  control(context: MemoryCallContext) {
    const control = service.control(context);
    return {
      ...control,
      async listBindings() {
        if ((await control.listBindings()).length === 0) throw failure;
        return control.listBindings();
      },
    };
  },
});

describe('the zero-config default binding', () => {
  it('is given to a company the server does not know, whose bindings answer MEMORY_NOT_FOUND, once', async () => {
    const host = throughServer(new MemoryNotFoundError({ resourceId: 'acme', message: 'Company "acme" is not known' }));
    await ensureDefaultMarkdownBinding(host, 'test', 'acme');
    await ensureDefaultMarkdownBinding(host, 'test', 'acme');
    const control = service.control({ actor: { kind: 'system', component: 'check' }, companyId: 'acme' });
    expect(await control.listBindings()).toMatchObject([{ key: 'default', providerId: 'markdown' }]);
    expect((await control.resolve()).binding.key).toBe('default');
  });

  it('is not given when the listing fails for another reason: the failure is the caller\'s to see', async () => {
    const failure = new MemoryApiCallError({ message: 'memplane serve is unreachable', isRetryable: true });
    await expect(ensureDefaultMarkdownBinding(throughServer(failure), 'test', 'acme')).rejects.toBe(failure);
    expect(await service.store.listBindings('acme')).toEqual([]);
  });
});
