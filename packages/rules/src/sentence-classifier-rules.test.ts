import { describe, expect, it } from 'vitest';
import { classifySentence, extractionRules } from './sentence-classifier';
import { isSmallTalk } from './small-talk';

/** The classification without the cue-word shortcut: small talk, else the first rule whose pattern matches. */
function classifyByEveryRule(sentence: string): { kind: string; confidence: number } {
  if (isSmallTalk(sentence)) return { kind: 'note', confidence: 0.2 };
  const head = sentence.length > 400 ? sentence.slice(0, 400) : sentence;
  const rule = extractionRules.find((candidate) => candidate.pattern.test(head));
  return rule === undefined ? { kind: 'note', confidence: 0.6 } : { kind: rule.kind, confidence: rule.confidence };
}

const cues = [
  'need to', 'needs to', "don't forget to", 'remember to', 'follow up with', 'should review', 'todo', 'action item', '- [ ] ', '* ',
  'remind me to', 'please remind us about', 'set a reminder', "don't let me forget", 'I am Jerry', "I'm Caroline", 'hi, this is Jerry', 'i lead the billing team',
  'never', 'always', 'must not', 'do not', "don't ever", 'is not allowed', 'are not allowed', 'mandatory', 'required to',
  'we decided', 'the team went with', 'they picked', 'decision', 'my name is', 'i am a ', "i'm an ", 'i work at', 'i live in', 'my pronouns are',
  'prefers', 'preferred', 'i like', "i'd rather", 'favourite', 'favorite', 'likes to', 'my goal', 'the goal is', 'aims to', 'plans to', 'working towards',
  'keywords:', 'tags :', 'focus areas:', 'the codebase uses', 'our stack runs', 'this project has', 'maybe', 'i think', 'seems to', 'likely',
  '2026-12-01', '5 ms', '3.5 gb', '40 users', 'deadline', 'version', 'released', 'deployed', 'is due', 'on mondays',
];
const nearMisses = ['needle', 'undo', 'island', 'theme', 'ours', 'mine', 'planet', 'versions', 'ongoing', 'do_it', 'weekend', 'ideal', 'seemingly', 'aimless', 'stagnant', 'kazet', 'dortripelren'];
const separators = [' ', ' ', ' ', "'", '_', '-', '.', '', '\u212a', '\u017f', '\n', ': '];

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

describe('rule classifier', () => {
  it('gives every sentence the kind of its first matching rule, with or without cue words', () => {
    const random = seeded(42);
    const pick = <Value>(values: ReadonlyArray<Value>) => values[Math.floor(random() * values.length)] as Value;
    const kinds = new Set<string>();
    for (let index = 0; index < 5000; index += 1) {
      const parts: string[] = [];
      const words = 1 + Math.floor(random() * 8);
      for (let word = 0; word < words; word += 1) {
        const source = random() < 0.3 ? pick(cues) : pick(nearMisses);
        const cased = random() < 0.3 ? source.toUpperCase() : random() < 0.5 ? source.replace(/^./, (first) => first.toUpperCase()) : source;
        parts.push(cased, pick(separators));
      }
      const sentence = parts.join('');
      const expected = classifyByEveryRule(sentence);
      kinds.add(expected.kind);
      expect(classifySentence(sentence), sentence).toEqual(expected);
    }
    expect(kinds.size).toBe(new Set(extractionRules.map((rule) => rule.kind)).size + 1);
  });
});
