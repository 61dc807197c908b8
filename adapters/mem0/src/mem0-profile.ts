import type { MemoryProfile, MemoryScope } from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0ProfileSchema } from './mem0-api-schemas';
import { qualifiedEntityId } from './mem0-scope-mapping';

/** Renders mem0's structured profile (shaped by the project's profile schema) as text, one line per top-level key. */
export function renderProfile(profile: Record<string, unknown>): string {
  return Object.entries(profile)
    .filter(([, value]) => value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0))
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join('; ') : JSON.stringify(value)}`)
    .join('\n');
}

/**
 * `profile`: `getProfile` of the scope's subject, whose mem0 user id is company-qualified.
 * mem0 keeps profiles for users only, and builds them asynchronously once a user has
 * enough memories, so:
 * - a scope without `subjectId` has no mem0 profile: the summary is empty and a warning says why;
 * - a profile that is not `succeeded` yet (`pending`, `insufficient_data`, `not_enabled`,
 *   `failed`) gives an empty summary and a warning with mem0's status.
 * mem0 does not say which memories a profile came from, so `items` is never set.
 */
export async function profileMem0(context: Mem0AdapterContext, scope: MemoryScope): Promise<MemoryProfile> {
  if (scope.subjectId === undefined) {
    return {
      summary: '',
      warnings: [{ type: 'unsupported', feature: 'profile', details: 'mem0 keeps profiles for users only; set scope.subjectId to read the profile of a subject.' }],
    };
  }
  const entityId = qualifiedEntityId(scope.companyId, scope.subjectId);
  const { value, usage } = await context.call({ operation: 'profile (getProfile)' }, mem0ProfileSchema, (client) => client.getProfile({ entityId }));
  if (value.status !== 'succeeded') {
    const reason = value.error ? `: ${value.error}` : '';
    return {
      summary: '',
      usage: [usage],
      warnings: [{ type: 'other', message: `mem0 has no profile for this subject yet (status ${value.status}${reason}).` }],
    };
  }
  return { summary: renderProfile(value.profile ?? {}), usage: [usage] };
}
