import type { ConformanceRule, RuleFixHint } from '../conformance-rule';

const scopeSection = '3-map-the-scope-and-enforce-the-company-twice';

/** The fix hints of the suite's rules, by rule id: the first entry whose pattern matches wins. */
const fixHints: ReadonlyArray<readonly [pattern: RegExp, fix: RuleFixHint]> = [
  [/^capabilities\.manifest$/, { guideSection: 'declare-capabilities-honestly', hint: 'Make the capability manifest plain JSON data that memoryAdapterCapabilitiesSchema accepts: boolean flags and operation names in remoteOperations, nothing else.' }],
  [/^capabilities\.specification-version$/, { guideSection: 'go-through-definememoryadapter', hint: 'Build the adapter with defineMemoryAdapter, which sets specificationVersion "v1".' }],
  [/^capabilities\.key$/, { guideSection: 'handles-that-work-everywhere', hint: 'Give the adapter a non-empty key and put that same key as providerKey on every handle it issues, from upsertRecords, capture and list.' }],
  [/^capabilities\.metadataFilter\./, { guideSection: 'declare-capabilities-honestly', hint: 'With metadataFilter declared, return only the records whose metadata has every filter value (filter after retrieval if the provider cannot); without it, add an `unsupported` warning naming metadataFilter to query and list results.' }],
  [/^capabilities\.[A-Za-z]+\.declared-off$/, { guideSection: 'declare-capabilities-honestly', hint: 'Leave the method out of the implementation while its flag is off, so defineMemoryAdapter throws UnsupportedCapabilityError, or declare the flag if the surface works.' }],
  [/^capabilities\.correct\.declared-on$/, { guideSection: 'corrections-patch-they-do-not-replace', hint: 'Make correct change the text and the metadata keys the patch names on the provider, keep the other keys, and return the handle get reads the corrected record with.' }],
  [/^capabilities\.[A-Za-z]*ExtractionJobs?\.declared-on$/, { guideSection: 'extraction-jobs', hint: 'A declared extraction-job surface must work against the provider: implement it, or turn its flag off until it does.' }],
  [/^capabilities\.[A-Za-z]+\.declared-on$/, { guideSection: 'declare-capabilities-honestly', hint: 'A declared surface must do its job against the provider: implement it, or turn its flag off until it does.' }],
  [/^scope\.source-mismatch\./, { guideSection: 'every-scope-field-on-every-call', hint: 'Refuse a write whose source.companyId differs from scope.companyId with MemoryScopeViolationError before writing anything (defineMemoryAdapter does it when you go through it).' }],
  [/^scope\.peer\./, { guideSection: 'peer-adapters-share-one-backend', hint: 'Keep records, forgets and the cursor secret in the backend, not in the adapter object, so a second adapter over the same backend sees the same state.' }],
  [/^scope\.unset-fields\./, { guideSection: 'every-scope-field-on-every-call', hint: 'Constrain only by the scope fields the request sets: an unset field matches every value, so a company-wide read sees the records of every agent, project and namespace.' }],
  [/^scope\.isolation\.companyId\.upsert$/, { guideSection: 'every-scope-field-on-every-call', hint: 'Key the provider\'s deduplication by company and scope: identical text upserted in two companies must stay two records.' }],
  [/^scope\.isolation\.[A-Za-z]+\.(get|forget|correct)$/, { guideSection: 'every-scope-field-on-every-call', hint: 'Check the record a handle names against every field of the given scope before reading, forgetting or correcting it: a handle from another scope gets null, changes nothing or a MemoryError.' }],
  [/^scope\./, { guideSection: scopeSection, hint: 'Send every scope field the request sets to the provider\'s filter (or filter after retrieval), and check each returned record with scopeMatches; never rely on defineMemoryAdapter dropping it.' }],
  [/^provenance\.correct\./, { guideSection: 'corrections-patch-they-do-not-replace', hint: 'Send the provider only the change the patch names and keep every other field (text, summary, other metadata keys) as stored; if its update replaces the whole record, read the record first and send it back with the patch applied.' }],
  [/^provenance\./, { guideSection: 'store-records-whole', hint: 'Store the text, summary, caller metadata and source ref exactly as written and read them back unchanged; keep what the provider has no field for under a reserved metadata key, and remove that key from the metadata you return.' }],
  [/^usage\./, { guideSection: 'report-usage-you-measured', hint: 'Report usage with provider set to the adapter key and a measured latencyMs; leave token and cost counters undefined unless the provider reported them, and then set raw.' }],
  [/^pagination\./, { guideSection: 'keyset-cursors', hint: 'Page by a stable key (creation time, then id), not an offset, in a cursor from createCursorCodec bound to the scope and filter; refuse any cursor it does not accept with InvalidCursorError, and return no nextCursor on the last page.' }],
  [/^forget\./, { guideSection: 'forget-means-gone', hint: 'Make forget delete exactly the named records at the provider, harmlessly when repeated or unknown, and keep forgotten records out of every later get, list, query and profile.' }],
  [/^validation\./, { guideSection: 'validate-before-writing', hint: 'Let defineMemoryAdapter validate every request before your code writes anything, and let its MemoryValidationError through.' }],
  [/^errors\./, { guideSection: 'typed-errors-and-retries', hint: 'Map provider errors with createApiCallError, run every call through callWithRetry with a timeout, parse responses with a schema, and keep the adapter usable once the fault is gone.' }],
  [/^extraction\./, { guideSection: 'extraction-jobs', hint: 'Let capture return the jobs it starts and getExtractionJob follow them to succeeded, or failed with an error, each with finishedAt, within the job\'s own company.' }],
];

/** The fix hint of a rule of the suite, by its id, or undefined when no hint covers it. */
export function fixHintFor(ruleId: string): RuleFixHint | undefined {
  return fixHints.find(([pattern]) => pattern.test(ruleId))?.[1];
}

/** The rules with their fix hints: a rule's own `fix` wins over the table. */
export function withFixHints(rules: ReadonlyArray<ConformanceRule>): ConformanceRule[] {
  return rules.map((rule) => {
    const fix = rule.fix ?? fixHintFor(rule.id);
    return fix === undefined ? rule : { ...rule, fix };
  });
}
