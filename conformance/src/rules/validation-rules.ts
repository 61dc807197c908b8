import type { MemoryRecordHandle, MemoryScope } from '@memplane/core';
import { expectDeepEqual, expectNoSnippets, expectRejection, expectTrue, expectValidationField, validationError } from '../assertions';
import { whenDeclared, type ConformanceRule } from '../conformance-rule';
import { markedText, type RuleContext } from '../rule-context';

/** Passes a deliberately invalid value where the types would refuse it. */
function invalid<Type>(value: unknown): Type {
  return value as Type;
}

interface ValidationCase {
  id: string;
  /** What is wrong with the input. */
  problem: string;
  /** The field the error must name, or a check of it for errors whose field is a prefix. */
  field: string;
  fieldIsPrefix?: boolean;
  requires?: ConformanceRule['requires'];
  /** Makes the invalid call. */
  call(context: RuleContext): Promise<unknown>;
  /** The company cannot be listed (it is missing or malformed), so there is nothing to list afterwards. */
  unlistable?: boolean;
}

/** A refused call about an existing record, which must survive it unchanged. */
interface SurvivorCase {
  id: string;
  problem: string;
  field: string;
  fieldIsPrefix?: boolean;
  requires?: ConformanceRule['requires'];
  /** Makes the invalid call about the record behind `handle`. */
  call(context: RuleContext, handle: MemoryRecordHandle): Promise<unknown>;
}

const upsert = (context: RuleContext, request: Record<string, unknown>) =>
  context.adapter.upsertRecords(invalid({ bindingKey: context.bindingKey, scope: context.scope(), records: [{ text: markedText(context.marker()) }], ...request }));
const capture = (context: RuleContext, request: Record<string, unknown>) =>
  context.adapter.capture(invalid({ bindingKey: context.bindingKey, scope: context.scope(), source: context.source(context.scope()), payload: { text: markedText(context.marker()) }, mode: 'capture_record', ...request }));
const query = (context: RuleContext, request: Record<string, unknown>) =>
  context.adapter.query(invalid({ bindingKey: context.bindingKey, scope: context.scope(), query: 'release checklist', ...request }));
const list = (context: RuleContext, request: Record<string, unknown>) =>
  context.adapter.list(invalid({ bindingKey: context.bindingKey, scope: context.scope(), ...request }));
const missingCompany = (context: RuleContext): MemoryScope => invalid({ agentId: context.ids.agentId });

const validationCases: ValidationCase[] = [
  { id: 'upsert.empty-text', problem: 'a record with empty text', field: 'records.0.text', call: (context) => upsert(context, { records: [{ text: '' }] }) },
  {
    id: 'upsert.last-record-invalid',
    problem: 'a batch whose last record has blank text',
    field: 'records.2.text',
    call: (context) => upsert(context, { records: [{ text: markedText(context.marker()) }, { text: markedText(context.marker()) }, { text: '   ' }] }),
  },
  { id: 'upsert.no-records', problem: 'an empty records list', field: 'records', call: (context) => upsert(context, { records: [] }) },
  { id: 'upsert.missing-company', problem: 'a scope without companyId', field: 'scope.companyId', unlistable: true, call: (context) => upsert(context, { scope: missingCompany(context) }) },
  { id: 'upsert.control-characters', problem: 'a companyId with a NUL character', field: 'scope.companyId', unlistable: true, call: (context) => upsert(context, { scope: { companyId: `${context.ids.companyId}\u0000` } }) },
  { id: 'upsert.unknown-scope-field', problem: 'a scope with an unknown field (a typo of agentId)', field: 'scope.agentID', call: (context) => upsert(context, { scope: { ...context.scope(), agentID: context.ids.agentId } }) },
  { id: 'upsert.unknown-source-kind', problem: 'a source of an unknown kind', field: 'source.kind', call: (context) => upsert(context, { source: { kind: 'telepathy', companyId: context.ids.companyId } }) },
  { id: 'upsert.non-json-metadata', problem: 'metadata holding NaN', field: 'records.0.metadata.score', call: (context) => upsert(context, { records: [{ text: markedText(context.marker()), metadata: { score: Number.NaN } }] }) },
  { id: 'capture.unknown-source-kind', problem: 'a source of an unknown kind', field: 'source.kind', call: (context) => capture(context, { source: { kind: 'telepathy', companyId: context.ids.companyId } }) },
  { id: 'capture.empty-payload', problem: 'a payload with blank text and no object', field: 'payload.text', call: (context) => capture(context, { payload: { text: '  ' } }) },
  { id: 'capture.missing-company', problem: 'a scope without companyId', field: 'scope.companyId', unlistable: true, call: (context) => capture(context, { scope: missingCompany(context) }) },
  { id: 'capture.unknown-mode', problem: 'an unknown mode', field: 'mode', call: (context) => capture(context, { mode: 'capture_everything' }) },
  { id: 'query.empty-query', problem: 'an empty query text', field: 'query', call: (context) => query(context, { query: '' }) },
  { id: 'query.topK-zero', problem: 'topK 0', field: 'topK', call: (context) => query(context, { topK: 0 }) },
  { id: 'query.topK-too-large', problem: 'topK 1000', field: 'topK', call: (context) => query(context, { topK: 1000 }) },
  { id: 'query.missing-company', problem: 'a scope without companyId', field: 'scope.companyId', unlistable: true, call: (context) => query(context, { scope: missingCompany(context) }) },
  { id: 'list.limit-zero', problem: 'limit 0', field: 'limit', call: (context) => list(context, { limit: 0 }) },
  { id: 'list.limit-too-large', problem: 'limit 1000', field: 'limit', call: (context) => list(context, { limit: 1000 }) },
  {
    id: 'get.empty-record-id',
    problem: 'a handle with an empty providerRecordId',
    field: 'handle.providerRecordId',
    call: (context) => context.adapter.get({ providerKey: context.adapter.key, providerRecordId: '' }, context.scope()),
  },
];

const survivorCases: SurvivorCase[] = [
  {
    id: 'forget.empty-record-id',
    problem: 'a batch of handles whose second handle has an empty providerRecordId',
    field: 'handles.1.providerRecordId',
    call: (context, handle) => context.adapter.forget([handle, { providerKey: context.adapter.key, providerRecordId: '' }], context.scope()),
  },
  { id: 'correct.empty-patch', problem: 'an empty correction patch', field: 'patch', fieldIsPrefix: true, requires: whenDeclared('correction'), call: (context, handle) => context.adapter.correct(handle, {}, context.scope()) },
  { id: 'correct.empty-text', problem: 'a correction to empty text', field: 'patch.text', requires: whenDeclared('correction'), call: (context, handle) => context.adapter.correct(handle, { text: '' }, context.scope()) },
];

function expectField(error: Parameters<typeof expectValidationField>[0], field: string, isPrefix: boolean | undefined, action: string) {
  if (isPrefix === true) {
    expectTrue(error.field === field || error.field.startsWith(`${field}.`), `Expected the MemoryValidationError of ${action} to name a field under "${field}", but it named "${error.field}" (${error.message}).`);
  } else expectValidationField(error, field, action);
}

/** The `validation` family: bad input is refused with the field named, before anything is written. */
export const validationRules: ConformanceRule[] = [
  ...validationCases.map(
    (validationCase): ConformanceRule => ({
      id: `validation.${validationCase.id}`,
      family: 'validation',
      description: `${validationCase.id.split('.')[0]} with ${validationCase.problem} throws MemoryValidationError naming ${validationCase.field}${validationCase.unlistable === true ? '' : ', and writes nothing'}.`,
      async run(context) {
        const action = `${validationCase.id.split('.')[0]} with ${validationCase.problem}`;
        const error = await expectRejection(action, () => validationCase.call(context), validationError);
        expectField(error, validationCase.field, validationCase.fieldIsPrefix, action);
        if (validationCase.unlistable === true) return;
        await context.waitForConsistency();
        expectNoSnippets(await context.listAll(context.scope()), `a list in company A after the refused ${action}`);
      },
    }),
  ),
  ...survivorCases.map(
    (survivorCase): ConformanceRule => ({
      id: `validation.${survivorCase.id}`,
      family: 'validation',
      description: `${survivorCase.id.split('.')[0]} with ${survivorCase.problem} throws MemoryValidationError naming ${survivorCase.field} and leaves the record unchanged.`,
      ...(survivorCase.requires === undefined ? {} : { requires: survivorCase.requires }),
      async run(context) {
        const action = `${survivorCase.id.split('.')[0]} with ${survivorCase.problem}`;
        const marker = context.marker('survivor');
        const handle = await context.writeMarkedRecord(context.scope(), marker);
        const error = await expectRejection(action, () => survivorCase.call(context, handle), validationError);
        expectField(error, survivorCase.field, survivorCase.fieldIsPrefix, action);
        await context.waitForConsistency();
        const listed = await context.listAll(context.scope());
        expectDeepEqual(listed.map((item) => item.text), [markedText(marker)], `the records company A lists after the refused ${action}`);
      },
    }),
  ),
];
