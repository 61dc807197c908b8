import { describe, expect, it } from 'vitest';
import { conversationTurnsOf, isAssistantRole, speakerPrefix } from './conversation-turns';
import { kindConfidenceThresholds, meetsKindThreshold, memoryKinds } from './memory-taxonomy';
import { classifySentence, smallTalkClassification, splitSentences } from './sentence-classifier';
import { isSmallTalk } from './small-talk';

describe('small talk', () => {
  const smallTalk = [
    'Nice to meet you!',
    'How can I help?',
    'Nice to meet you, Jerry!',
    'How can I help you today?',
    'Is there anything else I can help you with?',
    'Let me know if you have any other questions.',
    'Hi there!',
    'Good morning, Caroline.',
    'Hey Mel! Good to see you!',
    'How are you doing today?',
    "I'm good, thanks. And you?",
    'Thanks, Jerry!',
    'Thank you so much!',
    'Thanks for the update!',
    "You're welcome!",
    'No problem.',
    'Happy to help!',
    'Always happy to help!',
    'Hope this helps!',
    'Bye for now.',
    'Talk to you soon!',
    'Sounds good, have a great weekend.',
    'Okay, got it.',
    'Great, thanks!',
    'That makes sense.',
    'Assistant: How can I help?',
    'Caroline: Thanks, Mel!',
  ];
  it.each(smallTalk)('recognises %j as a whole sentence of small talk, below every kind threshold', (sentence) => {
    expect(isSmallTalk(sentence)).toBe(true);
    expect(classifySentence(sentence)).toEqual(smallTalkClassification);
    const { kind, confidence } = classifySentence(sentence);
    expect(meetsKindThreshold(kind, confidence)).toBe(false);
  });

  const content = [
    'Hi, I am Jerry, I lead the billing team',
    'Thanks, the deploy works now.',
    'Thanks for fixing the billing bug.',
    "I'm happy to help with the Postgres migration.",
    'See you Friday.',
    'Yes, Friday works.',
    'Welcome to Stripe.',
    'No, Postgres.',
    'Good morning, the build is red again.',
    'Nice to meet you at the offsite in Lisbon next month.',
  ];
  it.each(content)('keeps %j: a greeting or thanks with content after it is classified by the content', (sentence) => {
    expect(isSmallTalk(sentence)).toBe(false);
    const { kind, confidence } = classifySentence(sentence);
    expect(meetsKindThreshold(kind, confidence)).toBe(true);
  });

  it('sits below the lowest threshold of the taxonomy', () => {
    expect(smallTalkClassification.confidence).toBeLessThan(Math.min(...memoryKinds.map((kind) => kindConfidenceThresholds[kind])));
  });

  it('drops the pleasantries of a reply and keeps what it says', () => {
    const reply = 'Nice to meet you, Jerry! How can I help you today? The billing migration is due on 2026-12-01.';
    const kept = splitSentences(reply).filter((sentence) => {
      const { kind, confidence } = classifySentence(sentence);
      return meetsKindThreshold(kind, confidence);
    });
    expect(kept).toEqual(['The billing migration is due on 2026-12-01.']);
  });
});

describe('reminders are todos', () => {
  it.each([
    'Remind me to rotate the Stripe keys next week',
    'Please remind me to rotate the Stripe keys next week.',
    'Can you remind us about the quarterly access review?',
    "Don't let me forget the renewal of the TLS certificate.",
    'Set a reminder for the database failover drill.',
    'User: Remind me to rotate the Stripe keys next week',
  ])('%j', (sentence) => {
    expect(classifySentence(sentence)).toEqual({ kind: 'todo', confidence: 0.8 });
  });

  it.each(['Moments like these remind me how lucky we are.', "It's a reminder to appreciate nature.", 'That reminds me of the trip to Lisbon.'])(
    '%j is not a request to be reminded',
    (sentence) => {
      expect(classifySentence(sentence).kind).not.toBe('todo');
    },
  );
});

describe('self-introductions and roles are profiles', () => {
  it.each([
    'Hi, I am Jerry, I lead the billing team',
    'I am Jerry.',
    "I'm Jerry, the new SRE.",
    'I’m Jerry and I joined last week.',
    'Hi, this is Jerry.',
    'This is Jerry from billing.',
    'I manage the platform infrastructure team.',
    'I head up the data group.',
    'I run our mobile squad.',
  ])('%j', (sentence) => {
    expect(classifySentence(sentence)).toEqual({ kind: 'profile', confidence: 0.9 });
  });

  it.each([
    'I am going to rotate the keys tomorrow.',
    'I am sure the cache is cold after a deploy.',
    "I'm Not convinced the queue is the bottleneck.",
    'i am jerry and this is lowercase.',
    'This is Susie.',
    'This is Python code that runs nightly.',
    'I run the tests every morning.',
  ])('%j is not a profile', (sentence) => {
    expect(classifySentence(sentence).kind).not.toBe('profile');
  });
});

describe('conversation turns', () => {
  it('knows the assistant by its role, and never a named speaker', () => {
    for (const role of ['assistant', 'Assistant', 'AI', 'model']) expect(isAssistantRole(role)).toBe(true);
    for (const role of ['user', 'Caroline', 'Melanie', 'system', undefined]) expect(isAssistantRole(role)).toBe(false);
    expect(speakerPrefix('Caroline')).toBe('Caroline: ');
    expect(speakerPrefix('user')).toBe('');
  });

  it('reads a payload object of exactly { messages } as a conversation', () => {
    expect(conversationTurnsOf({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello', occurredAt: '2026-11-01T10:00:00Z' }] })).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello', occurredAt: '2026-11-01T10:00:00Z' },
    ]);
    expect(conversationTurnsOf({ messages: [] })).toBeUndefined();
    expect(conversationTurnsOf({ messages: [{ role: 'user', content: 'Hi' }], title: 'x' })).toBeUndefined();
    expect(conversationTurnsOf({ messages: [{ role: '', content: 'Hi' }] })).toBeUndefined();
    expect(conversationTurnsOf(undefined)).toBeUndefined();
  });
});
