/**
 * A Vercel AI SDK chat with memplane memory, on the embedded default (SQLite for the service,
 * markdown files for memory), offline. The model is the AI SDK's own mock, so no key is
 * needed; replace `chatModel()` with `openai('gpt-4.1')` or any other AI SDK model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hydrationBlockOpen, memplaneMiddleware, memplaneTools, type MemplaneMiddlewareEvent } from '@memplane/ai-sdk';
import { provider as markdownProvider } from '@memplane/markdown/provider';
import { createMemoryService } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { generateText, stepCountIs, wrapLanguageModel, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

/** What the example did, for its test. */
export interface AiSdkChatExampleResult {
  replies: string[];
  events: MemplaneMiddlewareEvent['type'][];
  notedRecordIds: string[];
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

/** A stand-in model that answers from the recalled block when there is one, and notes a preference when asked to. */
function chatModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'example',
    modelId: 'echo-memory',
    doGenerate: async ({ prompt }) => {
      const recalled = prompt.flatMap((message) => (message.role === 'system' && message.content.startsWith(hydrationBlockOpen) ? [message.content] : []))[0];
      const last = prompt.at(-1);
      if (last?.role === 'user' && JSON.stringify(last.content).includes('remember')) {
        const input = JSON.stringify({ text: 'The user prefers release notes as bullet points.', kind: 'preference' });
        return { content: [{ type: 'tool-call', toolCallId: 'note-1', toolName: 'memory_note', input }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] };
      }
      const text = recalled === undefined
        ? 'Noted. Deploys happen on Tuesdays after the standup.'
        : `From memory: ${recalled.split('\n').filter((line) => line.startsWith('- ')).join(' ')}`;
      return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
}

/** Runs three turns in `dataDirectory` and prints what happens through `print`. */
export async function runAiSdkChatExample(dataDirectory: string, print: (line: string) => void = () => {}): Promise<AiSdkChatExampleResult> {
  const service = await createMemoryService({
    store: createSqliteMemoryServiceStore({ filename: join(dataDirectory, 'memplane.db') }),
    dataDirectory,
    providers: [markdownProvider],
  });
  try {
    // The company's admin binds markdown memory and lets it take run captures.
    const admin = service.control({ actor: { kind: 'company', companyId: 'acme', userId: 'admin' } });
    await admin.createBinding({ key: 'default', providerId: 'markdown', hooks: { postRunCapture: true } });
    await admin.setTarget({ targetType: 'company' }, 'default');

    // The host says who the model works for; the model never does.
    const agent = { companyId: 'acme', agentId: 'assistant', runId: 'chat-1' };
    const events: MemplaneMiddlewareEvent['type'][] = [];
    const memory = memplaneMiddleware(service, {
      agent,
      hydrate: { timeoutMs: 1000, maxTokens: 400 },
      onEvent: (event) => {
        events.push(event.type);
        if (event.level !== 'info') print(`memory ${event.type}: ${'error' in event ? event.error.message : ''}`);
      },
    });
    const model = wrapLanguageModel({ model: chatModel(), middleware: memory });
    const tools = memplaneTools(service, { agent });

    const messages: ModelMessage[] = [];
    const replies: string[] = [];
    const notedRecordIds: string[] = [];
    for (const question of ['We decided that deploys happen on Tuesdays after the standup.', 'When do deploys happen?', 'Please remember that I like bullet points.']) {
      messages.push({ role: 'user', content: question });
      const result = await generateText({ model, tools, stopWhen: stepCountIs(3), system: 'You are a helpful release assistant.', messages });
      messages.push(...result.response.messages);
      for (const step of result.steps) {
        for (const call of step.toolResults) {
          const output = call.output as { ok: boolean; data?: { recordIds?: string[] } };
          notedRecordIds.push(...(output.data?.recordIds ?? []));
        }
      }
      replies.push(result.text);
      print(`user: ${question}\nassistant: ${result.text}`);
    }

    // Captures run in the background; wait for them before closing.
    await memory.flush();
    print(`memory events: ${events.join(', ')}`);
    return { replies, events, notedRecordIds };
  } finally {
    await service.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'memplane-ai-sdk-example-'));
  try {
    await runAiSdkChatExample(dataDirectory, (line) => console.log(line));
  } finally {
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
