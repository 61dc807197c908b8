import { MockLanguageModelV3 } from 'ai/test';

type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];

const usage = { inputTokens: { total: 1200, noCache: 1200, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 40, text: 40, reasoning: undefined } };

/** The file parts a model received, as the AI SDK handed them to the provider. */
export interface ReceivedFile {
  readonly mediaType: string;
  readonly data: unknown;
}

/** A language model that answers every call with `answer` (text as given, or JSON of a value), recording the file parts it was sent. */
export function mediaModel(answer: unknown, modelId = 'mock-vision'): MockLanguageModelV3 & { files: ReceivedFile[] } {
  const files: ReceivedFile[] = [];
  const model = new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId,
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      for (const message of options.prompt) {
        if (message.role !== 'user') continue;
        for (const part of message.content) if (part.type === 'file') files.push({ mediaType: part.mediaType, data: part.data });
      }
      const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
      return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
  return Object.assign(model, { files });
}

/** A language model that never answers: it waits until the call is aborted (the profile's timeout). */
export function hangingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-hang',
    doGenerate: (options: LanguageModelV3CallOptions) =>
      new Promise((_, reject) => {
        const abort = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        if (options.abortSignal?.aborted === true) abort();
        options.abortSignal?.addEventListener('abort', abort, { once: true });
      }),
  });
}

/** A language model whose provider fails every call. */
export function failingModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-down',
    doGenerate: async () => {
      throw Object.assign(new Error('service unavailable'), { name: 'AI_APICallError', statusCode: 503, isRetryable: true });
    },
  });
}

/** A small PNG: its signature, then bytes no text holds (a marker to look for in files). */
export function pngBytes(marker = 'PNGMARKERq7Z'): Uint8Array {
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.from(`IHDR${marker}IDAT${marker}`, 'latin1'), 0, 1, 2, 255]);
}

/** A two-page PDF as far as its page objects tell (`/Type /Page` twice, uncompressed). */
export function twoPagePdf(marker = 'PDFMARKERk3W'): Uint8Array {
  return new Uint8Array(Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Pages /Count 2 >> endobj\n2 0 obj << /Type /Page >> endobj\n3 0 obj << /Type /Page >> endobj\n% ${marker}\n%%EOF\n`, 'latin1'));
}

/** A WAV header and a few samples. */
export function wavBytes(): Uint8Array {
  return new Uint8Array([...Buffer.from('RIFF', 'latin1'), 36, 0, 0, 0, ...Buffer.from('WAVEfmt ', 'latin1'), 16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0, 0, 0, 0, 0]);
}
