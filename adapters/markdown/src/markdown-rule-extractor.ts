import type { ExtractedItem, ExtractionInput, ExtractionOutput, MemoryExtractor } from './markdown-extractor';
import { classifySentence, isAssistantRole, isSmallTalk, meetsKindThreshold, noteFallback as fallback, speakerPrefix, splitSentences, type AssistantTurns } from '@memplane/rules';

/** Options of {@link createRuleBasedExtractor}. */
export interface RuleBasedExtractorOptions {
  /**
   * What happens to the assistant's turns of a captured conversation (role `assistant`, `ai` or
   * `model`, any case): `skip` (default) extracts nothing from them; `keep` extracts from them like
   * any other turn. Named speakers ("Caroline") are never assistants.
   */
  assistantTurns?: AssistantTurns;
}

/**
 * The built-in extractor: deterministic, no model. Every sentence of three words or more becomes
 * one item whose kind comes from the first matching cue in {@link extractionRules} (or `note`),
 * so the same residue always gives the same items; small talk ("Nice to meet you!", "How can I
 * help?") is below every kind's threshold and gives none. The quote is the sentence itself;
 * identical sentences give one item. In a conversation, the assistant's turns are skipped unless
 * `assistantTurns` is `keep`, and a named speaker's sentences carry the name (`Caroline: …`).
 */
export function createRuleBasedExtractor(options: RuleBasedExtractorOptions = {}): MemoryExtractor {
  const keepAssistant = options.assistantTurns === 'keep';
  return {
    name: 'rules',
    mode: 'sync',
    async extract(input: ExtractionInput): Promise<ExtractionOutput> {
      const parts =
        input.messages === undefined
          ? [{ prefix: '', text: input.text }]
          : input.messages.filter((turn) => keepAssistant || !isAssistantRole(turn.role)).map((turn) => ({ prefix: speakerPrefix(turn.role), text: turn.content }));
      const seen = new Set<string>();
      const items: ExtractedItem[] = [];
      let sentences = 0;
      for (const part of parts) {
        for (const sentence of splitSentences(part.text)) {
          sentences += 1;
          const text = `${part.prefix}${sentence}`;
          if (seen.has(text)) continue;
          seen.add(text);
          const { kind, confidence } = classifySentence(sentence);
          if (meetsKindThreshold(kind, confidence)) items.push({ kind, text, confidence, quote: sentence });
        }
      }
      const whole = parts.map((part) => part.text).join('\n').trim();
      // Residue too short to split into sentences is still remembered, as one note, unless it is small talk.
      if (sentences === 0 && whole !== '' && !isSmallTalk(whole)) items.push({ ...fallback, text: whole, quote: whole });
      return { items };
    },
  };
}
