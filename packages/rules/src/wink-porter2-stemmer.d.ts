// The stemmer ships no types of its own: one function from a lowercase word to its Porter2 stem.
declare module 'wink-porter2-stemmer' {
  /** The Porter2 (English Snowball) stem of a lowercase word. */
  export default function stem(word: string): string;
}
