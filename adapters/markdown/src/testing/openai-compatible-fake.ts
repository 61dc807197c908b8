import { http, HttpResponse, type HttpHandler } from 'msw';
import { createRuleBasedExtractor } from '../markdown-rule-extractor';
import { hashEmbedding } from './hash-embedding';

/** What the fake counts, so tests can check calls and caching. */
export interface OpenAICompatibleFakeState {
  /** Texts embedded, in call order. */
  embeddedTexts: string[];
  /** Chat completion calls. */
  chatCalls: number;
}

/**
 * msw handlers that emulate an OpenAI-compatible server at `baseURL`: `/embeddings` answers with
 * {@link hashEmbedding} vectors and token usage; `/chat/completions` answers with the structured
 * JSON the built-in rule extractor produces from the user message, and token usage. Under an
 * `extraction_failure` fault, chat completions answer 500. HTTP faults are answered by the test
 * server's `faultUrls`, before these handlers.
 */
export function createOpenAICompatibleFake(
  baseURL: string,
  dimensions: number,
  isExtractionFailureInForce: () => boolean = () => false,
): { handlers: HttpHandler[]; state: OpenAICompatibleFakeState } {
  const state: OpenAICompatibleFakeState = { embeddedTexts: [], chatCalls: 0 };
  const extractor = createRuleBasedExtractor();
  const handlers = [
    http.post(`${baseURL}/embeddings`, async ({ request }) => {
      const body = (await request.json()) as { input: string[]; model: string };
      state.embeddedTexts.push(...body.input);
      const tokens = body.input.reduce((sum, text) => sum + text.split(/\s+/).length, 0);
      return HttpResponse.json({
        object: 'list',
        model: body.model,
        data: body.input.map((text, index) => ({ object: 'embedding', index, embedding: hashEmbedding(text, dimensions) })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    }),
    http.post(`${baseURL}/chat/completions`, async ({ request }) => {
      state.chatCalls += 1;
      if (isExtractionFailureInForce()) {
        return HttpResponse.json({ error: { message: 'extraction failed (injected fault)' } }, { status: 500 });
      }
      const body = (await request.json()) as { model: string; messages: Array<{ role: string; content: string }> };
      const text = body.messages.find((message) => message.role === 'user')?.content ?? '';
      const { items } = await extractor.extract({ text, scope: { companyId: 'fake' } });
      const content = JSON.stringify({
        items: items.map((item) => ({ kind: item.kind, text: item.text, confidence: item.confidence, quote: item.quote ?? item.text, expires_at: null })),
      });
      const promptTokens = text.split(/\s+/).length + 200;
      return HttpResponse.json({
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: content.length >> 2, total_tokens: promptTokens + (content.length >> 2), prompt_tokens_details: { cached_tokens: 0 } },
      });
    }),
  ];
  return { handlers, state };
}
