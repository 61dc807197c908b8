import { MockEmbeddingModelV3, MockLanguageModelV3 } from 'ai/test';

const usage = { inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 7, text: 7, reasoning: undefined } };

/** A language model that answers each call with the next JSON value (the last one repeats), recording the prompts. */
export function scriptedJsonModel(answers: readonly unknown[]): MockLanguageModelV3 & { prompts: string[] } {
  let next = 0;
  const prompts: string[] = [];
  const model = new MockLanguageModelV3({
    provider: 'mock-provider',
    modelId: 'mock-json',
    doGenerate: async (options) => {
      prompts.push(JSON.stringify(options.prompt));
      const answer = answers[Math.min(next, answers.length - 1)];
      next += 1;
      return { content: [{ type: 'text', text: JSON.stringify(answer) }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
  return Object.assign(model, { prompts });
}

/** An embedding model of letter counts: texts sharing letters are near, deterministic, offline. */
export function letterCountEmbedder(): MockEmbeddingModelV3 {
  const embed = (text: string) => Array.from({ length: 26 }, (_, index) => [...text.toLowerCase()].filter((char) => char.charCodeAt(0) - 97 === index).length);
  return new MockEmbeddingModelV3({ provider: 'mock-provider', modelId: 'letters', doEmbed: async ({ values }) => ({ embeddings: values.map(embed), usage: { tokens: values.length }, warnings: [] }) });
}
