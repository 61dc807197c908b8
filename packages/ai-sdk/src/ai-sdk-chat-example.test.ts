import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAiSdkChatExample } from '../../../examples/ai-sdk-chat/src/ai-sdk-chat';

describe('the ai-sdk-chat example', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('runs offline: turn two answers from what turn one captured, and the note tool writes', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'memplane-ai-sdk-example-'));
    folders.push(dataDirectory);
    const lines: string[] = [];
    const result = await runAiSdkChatExample(dataDirectory, (line) => lines.push(line));
    expect(result.replies[1]).toMatch(/^From memory: .*Tuesdays/);
    expect(result.notedRecordIds).toHaveLength(1);
    expect(result.events.filter((type) => type === 'captured')).toHaveLength(3);
    expect(result.events.some((type) => type.includes('fail') || type.includes('timeout'))).toBe(false);
    expect(lines.join('\n')).toContain('assistant: From memory:');
  });
});
