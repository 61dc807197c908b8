/**
 * A lone surrogate: half of a UTF-16 pair without its other half. It is not a Unicode character,
 * so UTF-8 (files, SQLite, Postgres, every JSON API) cannot hold it: it comes back as U+FFFD, or
 * the write is refused. Requests refuse it, so what is written is what is read.
 */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What a text with a lone surrogate is told. */
export const wellFormedTextMessage = 'must be well-formed Unicode (no lone surrogates)';

const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** Whether a text holds no lone surrogate. Native where the runtime has it (Node 20), a pattern elsewhere. */
export const isWellFormedText: (text: string) => boolean =
  nativeIsWellFormed === undefined ? (text) => !loneSurrogate.test(text) : (text) => nativeIsWellFormed.call(text);
