import type { RuleFamily } from '../../conformance-rule';
import { acceptsForeignCursors } from './accepts-foreign-cursors';
import { claimsCorrectionItLacks } from './claims-correction-it-lacks';
import { correctReplacesRecord } from './correct-replaces-record';
import { dropsSummary } from './drops-summary';
import { dropsRecordBetweenPages } from './drops-record-between-pages';
import { extractionNeverFinishes } from './extraction-never-finishes';
import { forgetDoesNotStick } from './forget-does-not-stick';
import { correctIgnoresAgent, forgetIgnoresAgent, getIgnoresAgent } from './handles-ignore-agent';
import { hidesProfileItHas } from './hides-profile-it-has';
import { ignoresAgentOnList, ignoresAgentOnListWrapped } from './ignores-agent-on-list';
import { ignoresAgentScope } from './ignores-agent-scope';
import { inventsUsageCounters } from './invents-usage-counters';
import { leaksOtherCompanies } from './leaks-other-companies';
import { losesProvenance } from './loses-provenance';
import { rateLimitAsGenericError } from './rate-limit-as-generic-error';
import { retryDoesNothing } from './retry-does-nothing';
import { writesBeforeValidating } from './writes-before-validating';
import type { AdapterBreaker } from './wrap-adapter';

/** Test-only. One deliberately broken variant of the reference adapter and what must catch it. */
export interface BrokenVariant {
  /** The variant's name. */
  name: string;
  /** The family the planted bug belongs to. */
  family: RuleFamily;
  /** Plants the bug. */
  breaker: AdapterBreaker;
  /** Rules that must fail against this variant: the suite's proof that it catches the bug. */
  mustFail: string[];
}

/** Test-only. Every broken variant, at least one per rule family. */
export const brokenVariants: BrokenVariant[] = [
  {
    name: 'leaks-other-companies',
    family: 'scope',
    breaker: leaksOtherCompanies,
    mustFail: ['scope.isolation.companyId.query', 'scope.isolation.companyId.list', 'scope.isolation.companyId.upsert'],
  },
  {
    name: 'ignores-agent-scope',
    family: 'scope',
    breaker: ignoresAgentScope,
    mustFail: ['scope.isolation.agentId.query', 'scope.isolation.agentId.list', 'scope.unset-fields.list'],
  },
  {
    name: 'ignores-agent-on-list',
    family: 'scope',
    breaker: ignoresAgentOnList,
    mustFail: ['scope.isolation.agentId.list', 'scope.unset-fields.list'],
  },
  {
    name: 'ignores-agent-on-list-wrapped',
    family: 'scope',
    breaker: ignoresAgentOnListWrapped,
    mustFail: ['scope.isolation.agentId.list', 'scope.unset-fields.list'],
  },
  {
    name: 'get-ignores-agent',
    family: 'scope',
    breaker: getIgnoresAgent,
    mustFail: ['scope.isolation.agentId.get'],
  },
  {
    name: 'forget-ignores-agent',
    family: 'scope',
    breaker: forgetIgnoresAgent,
    mustFail: ['scope.isolation.agentId.forget'],
  },
  {
    name: 'correct-ignores-agent',
    family: 'scope',
    breaker: correctIgnoresAgent,
    mustFail: ['scope.isolation.agentId.correct'],
  },
  {
    name: 'drops-record-between-pages',
    family: 'pagination',
    breaker: dropsRecordBetweenPages,
    mustFail: ['pagination.walk', 'pagination.limit', 'pagination.walk-while-changing'],
  },
  {
    name: 'accepts-foreign-cursors',
    family: 'pagination',
    breaker: acceptsForeignCursors,
    mustFail: ['pagination.cursor.foreign-company', 'pagination.cursor.foreign-agent', 'pagination.cursor.stale-filter'],
  },
  {
    name: 'loses-provenance',
    family: 'provenance',
    breaker: losesProvenance,
    mustFail: [
      'provenance.round-trip.get',
      'provenance.round-trip.list',
      'provenance.round-trip.query',
      'provenance.capture-record',
      'provenance.source-kinds',
    ],
  },
  {
    name: 'drops-summary',
    family: 'provenance',
    breaker: dropsSummary,
    mustFail: ['provenance.summary.get', 'provenance.summary.list', 'provenance.correct.summary-only'],
  },
  {
    name: 'correct-replaces-record',
    family: 'provenance',
    breaker: correctReplacesRecord,
    mustFail: ['provenance.correct.summary-only', 'provenance.correct.metadata-only'],
  },
  {
    name: 'invents-usage-counters',
    family: 'usage',
    breaker: inventsUsageCounters,
    mustFail: ['usage.capture', 'usage.upsertRecords', 'usage.query', 'usage.list', 'usage.forget', 'usage.correct', 'usage.profile', 'usage.explain'],
  },
  {
    name: 'forget-does-not-stick',
    family: 'forget',
    breaker: forgetDoesNotStick,
    mustFail: ['forget.list', 'forget.twice', 'forget.leaves-others'],
  },
  {
    name: 'claims-correction-it-lacks',
    family: 'capabilities',
    breaker: claimsCorrectionItLacks,
    mustFail: ['capabilities.correct.declared-on'],
  },
  {
    name: 'hides-profile-it-has',
    family: 'capabilities',
    breaker: hidesProfileItHas,
    mustFail: ['capabilities.profile.declared-off'],
  },
  {
    name: 'writes-before-validating',
    family: 'validation',
    breaker: writesBeforeValidating,
    mustFail: ['validation.upsert.empty-text', 'validation.upsert.last-record-invalid', 'validation.upsert.no-records'],
  },
  {
    name: 'rate-limit-as-generic-error',
    family: 'errors',
    breaker: rateLimitAsGenericError,
    mustFail: ['errors.rate-limited.query', 'errors.rate-limited.list', 'errors.rate-limited.upsertRecords'],
  },
  {
    name: 'extraction-never-finishes',
    family: 'extraction',
    breaker: extractionNeverFinishes,
    mustFail: ['extraction.job.reaches-succeeded', 'extraction.records.scoped', 'extraction.failure.reported', 'extraction.retry.succeeds'],
  },
  {
    name: 'retry-does-nothing',
    family: 'extraction',
    breaker: retryDoesNothing,
    mustFail: ['extraction.retry.succeeds'],
  },
];
