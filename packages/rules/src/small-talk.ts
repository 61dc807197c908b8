/**
 * Small talk: greetings, pleasantries, thanks, offers of help, farewells and filler
 * acknowledgements. The taxonomy keeps durable information and leaves raw conversation out, so a
 * sentence that is nothing but small talk is not a memory. Only whole sentences count: a sentence
 * with content after its greeting ("Hi, I am Jerry, I lead the billing team") is not small talk.
 */

/** Phrases that are small talk on their own, lower case, apostrophes straight, no punctuation. */
const smallTalkPhrases = [
  // Greetings and how-are-yous.
  'hi', 'hello', 'hey', 'hiya', 'howdy', 'greetings', 'good (?:morning|afternoon|evening|day)', 'welcome(?: back)?',
  'how are you(?: doing)?(?: today)?', "how's it going", 'how is it going', 'how have you been', "how's (?:your|the) (?:day|week)(?: going)?",
  "what's up", 'long time no see', '(?:it is |it\'s )?(?:so |really )?(?:nice|great|good|lovely) to (?:see|hear from) you',
  // Pleasantries.
  "(?:it is |it's |it was )?(?:so |really |very )?(?:nice|great|good|lovely|pleased|glad|a pleasure) (?:to meet you|meeting you)", 'likewise',
  "(?:i'm|i am) (?:doing )?(?:good|fine|great|well|ok|okay)", 'not bad', 'all good', 'doing (?:good|fine|great|well)', "(?:and )?(?:you|yourself)",
  "(?:i )?hope (?:you're|you are) (?:doing )?well", "(?:i )?hope (?:this|that) helps",
  'have a (?:nice|good|great|wonderful|lovely) (?:day|evening|weekend|night|week|one)', 'enjoy your (?:day|evening|weekend)',
  // Thanks and their answers.
  'thanks', 'thank you', 'thx', 'cheers', 'many thanks', 'much appreciated', '(?:i )?appreciate (?:it|that)',
  "you're welcome", 'you are welcome', 'no problem', 'no worries', 'not a problem', 'my pleasure', "don't mention it", 'sure thing',
  'for (?:that|this|the help|your help|helping|asking|sharing|the update|letting me know)',
  // Offers of help.
  '(?:how|what) (?:can|may) i (?:help|assist|do for)(?: you)?(?: with)?(?: that| today)?', 'what can i help you with(?: today)?',
  "is there anything else(?: (?:i can (?:help|assist)(?: you)? with|you need|you'd like))?", 'anything else',
  "let me know if (?:you need anything(?: else)?|there's anything else(?: i can (?:help|do))?(?: with| for you)?|you have (?:any )?(?:other |more |further )?questions)",
  'feel free to (?:ask|reach out)', "(?:i'm|i am) (?:here|happy|glad) to help", "(?:i'd|i would) be (?:happy|glad) to help",
  '(?:happy|glad) to help', "(?:i'm |i am )?glad (?:i could|to) help",
  // Farewells.
  'bye', 'goodbye', 'bye for now', 'see you(?: later| soon| tomorrow| next time| around)?', 'see ya', 'talk (?:to you )?(?:later|soon)',
  'take care', 'good ?night', 'catch you later', 'until next time',
  // Filler acknowledgements.
  'ok', 'okay', 'sure', 'yes', 'yeah', 'yep', 'yup', 'no', 'nope', 'right', 'alright', 'all right', 'got it', 'gotcha', 'understood', 'noted', 'will do',
  'sounds (?:good|great|perfect|like a plan)', "(?:that|that's|that is) (?:great|awesome|good|nice|cool|amazing|wonderful|perfect|helpful|fine)",
  'great', 'cool', 'nice', 'awesome', 'perfect', 'excellent', 'wonderful', 'fantastic', 'amazing', 'good', 'fine',
  'i see', '(?:that )?makes sense', 'of course', 'absolutely', 'definitely', 'exactly', 'indeed', 'agreed', 'fair enough',
  'good to know', '(?:great|glad|good) to hear(?: (?:it|that))?', 'hmm+', 'oh', 'ah', 'wow', 'haha', 'lol',
  // Words that only soften or address the phrases around them.
  'so', 'too', 'very', 'really', 'much', 'a lot', 'again', 'well', 'and', 'also', 'always', 'anytime', 'any time', 'please', 'just', 'then', 'to you', 'as well',
  'there', 'all', 'everyone', 'everybody', 'guys', 'folks', 'team',
];

const phrase = `(?:${smallTalkPhrases.join('|')})`;
/** Every word the phrases use: a sentence with any other word (names it addresses aside) is not small talk. */
const vocabulary: ReadonlySet<string> = new Set(smallTalkPhrases.join(' ').match(/[a-z']+/g));
const wholeSmallTalk = new RegExp(`^${phrase}(?: ${phrase})*$`);
/** Phrases that are only softeners: a sentence of nothing else ("so very") is not small talk but noise; it still needs a real phrase. */
const softenersOnly = /^(?:(?:so|too|very|really|much|a lot|again|well|and|also|always|anytime|any time|please|just|then|to you|as well|there|all|everyone|everybody|guys|folks|team)(?: |$))+$/;

/** A leading speaker label (`User: `, `Caroline: `): the words after it are the sentence. */
const speakerLabel = /^\s*[^\s:.!?][^:.!?\n]{0,40}:\s+/;
/** One word and the separator after it (global: read from `lastIndex`, reset before each sentence). */
const wordWithSeparator = /([\p{L}\p{M}\p{N}']+)([^\p{L}\p{M}\p{N}']*)/gu;
/** The first word of a sentence without its speaker label (the phrases are all ASCII). */
const firstWord = /^[^A-Za-z]*([A-Za-z]+(?:'[A-Za-z]+)*)/;
/** A capitalised word: a name, when it follows a greeting, thanks or farewell ("Thanks, Jerry!"). */
const capitalised = /^\p{Lu}\p{Ll}+$/u;
/** The words after which a capitalised word addresses someone; "Yes, Friday" keeps its Friday. */
const addressedAfter: ReadonlySet<string> = new Set(['hi', 'hello', 'hey', 'hiya', 'morning', 'afternoon', 'evening', 'night', 'welcome', 'back', 'thanks', 'you', 'cheers', 'bye', 'goodbye', 'later', 'soon', 'care', 'again', 'there', 'dear']);
/** Capitalised words that name a time, not a person: "See you Friday" is a date, kept. */
const timeWords: ReadonlySet<string> = new Set([
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'today', 'tonight', 'tomorrow',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
]);
/** Small talk is short: longer sentences are left to the classifier without this check. */
const longestSmallTalkWords = 16;

/**
 * Whether a sentence is nothing but small talk (case-insensitive, punctuation and emoji ignored,
 * a leading speaker label and names it addresses ignored): "Nice to meet you!", "How can I
 * help?", "Thanks, Jerry!", "Sounds good, have a great weekend." A sentence with anything else in
 * it ("Thanks, the deploy works now") is not.
 */
export function isSmallTalk(sentence: string): boolean {
  if (sentence.length > 160) return false;
  const labelled = sentence.includes(':') ? sentence.replace(speakerLabel, '') : sentence;
  const unlabelled = labelled.includes('’') || labelled.includes('‘') ? labelled.replace(/[’‘]/gu, "'") : labelled;
  // Most sentences fail on their first word; only those that pass are read on, word by word.
  const first = firstWord.exec(unlabelled)?.[1]?.toLowerCase();
  if (first === undefined || !vocabulary.has(first)) return false;
  const kept: string[] = [];
  const words = wordWithSeparator;
  words.lastIndex = 0;
  for (let match = words.exec(unlabelled); match !== null; match = words.exec(unlabelled)) {
    const bare = (match[1] ?? '').replace(/^'+|'+$/gu, '');
    if (bare === '') continue;
    const lower = bare.toLowerCase();
    if (vocabulary.has(lower)) {
      kept.push(lower);
    } else {
      // A name is addressed when it follows a greeting or thanks and ends a phrase: "Hey Mel! Good to see you".
      const previous = kept.at(-1);
      const endsPhrase = words.lastIndex >= unlabelled.length || (match[2] ?? '').trim() !== '';
      if (previous === undefined || !endsPhrase || !capitalised.test(bare) || !addressedAfter.has(previous) || timeWords.has(lower)) return false;
    }
    if (kept.length > longestSmallTalkWords) return false;
  }
  const normalised = kept.join(' ');
  return normalised !== '' && !softenersOnly.test(normalised) && wholeSmallTalk.test(normalised);
}
