import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createMarkdownAdapter, type MarkdownAdapter } from '../markdown-adapter';
import type { MarkdownAdapterSettings } from '../markdown-settings';

/** Temporary roots and adapters for one test file, removed and closed after each test. */
export function useTemporaryRoots() {
  const roots: string[] = [];
  const adapters: MarkdownAdapter[] = [];
  afterEach(async () => {
    for (const adapter of adapters.splice(0)) {
      await adapter.whenIdle();
      adapter.close();
    }
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  return {
    root(): string {
      const root = mkdtempSync(join(tmpdir(), 'memplane-markdown-test-'));
      roots.push(root);
      return root;
    },
    open(settings: MarkdownAdapterSettings): MarkdownAdapter {
      const adapter = createMarkdownAdapter(settings);
      adapters.push(adapter);
      return adapter;
    },
  };
}
