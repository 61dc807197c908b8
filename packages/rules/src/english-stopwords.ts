/**
 * English stopwords removed from queries (not from the index): the usual function words plus
 * question words, which carry no content in a memory query ("what did she say about…").
 */
export const englishStopwords: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
  can cannot could did do does doing down during each few for from further had has have having he her here hers herself
  him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
  other ought our ours ourselves out over own same she should so some such than that the their theirs them themselves
  then there these they this those through to too under until up very was we were what when where which while who whom
  why will with would you your yours yourself yourselves s t d ll m re ve don didn doesn isn wasn weren won wouldn
  shouldn couldn hasn haven hadn aren ever also yet`
    .split(/\s+/)
    .filter((word) => word !== ''),
);
