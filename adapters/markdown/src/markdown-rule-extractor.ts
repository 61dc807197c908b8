import type { ExtractedItem, ExtractionInput, ExtractionOutput, MemoryExtractor } from './markdown-extractor';
import { classifySentence, meetsKindThreshold, noteFallback as fallback, splitSentences } from '@memplane/core/rules';

// The classifier lives in @memplane/core/rules, shared with @memplane/engine.
export { classifySentence, extractionRules, splitSentences } from '@memplane/core/rules';

/**
 * The built-in extractor: deterministic, no model. Every sentence of three words or more becomes
 * one item whose kind comes from the first matching cue in {@link extractionRules} (or `note`),
 * so nothing said is lost and the same residue always gives the same items. The quote is the
 * sentence itself; identical sentences give one item.
 */
export function createRuleBasedExtractor(): MemoryExtractor {
  return {
    name: 'rules',
    mode: 'sync',
    async extract(input: ExtractionInput): Promise<ExtractionOutput> {
      const seen = new Set<string>();
      const items: ExtractedItem[] = [];
      for (const sentence of splitSentences(input.text)) {
        if (seen.has(sentence)) continue;
        seen.add(sentence);
        const { kind, confidence } = classifySentence(sentence);
        if (meetsKindThreshold(kind, confidence)) items.push({ kind, text: sentence, confidence, quote: sentence });
      }
      const whole = input.text.trim();
      // Residue too short to split into sentences is still remembered, as one note.
      if (items.length === 0 && whole !== '') items.push({ ...fallback, text: whole, quote: whole });
      return { items };
    },
  };
}
