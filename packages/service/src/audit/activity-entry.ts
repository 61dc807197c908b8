import { referenceOf, type MemoryActor } from '../actor/memory-actor';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryActivityAction, MemoryActivityEntry, MemoryActivitySubjectType } from '../store/memory-service-records';

/** Builds one activity entry: who did what to which subject, with the state before and after. */
export function activityEntry(
  internals: Pick<ServiceInternals, 'createId' | 'now'>,
  actor: MemoryActor,
  companyId: string,
  action: MemoryActivityAction,
  subject: { type: MemoryActivitySubjectType; id: string },
  before: unknown,
  after: unknown,
): MemoryActivityEntry {
  return {
    id: internals.createId('act'),
    companyId,
    actor: referenceOf(actor),
    action,
    subjectType: subject.type,
    subjectId: subject.id,
    before: before ?? null,
    after: after ?? null,
    createdAt: internals.now(),
  };
}
