import { MemoryApiCallError, type MemoryProfile, type MemoryScope, type MemoryUsage } from '@memplane/core';
import type { Mem0AdapterContext } from './mem0-adapter-context';
import { mem0ProfileSchema, type Mem0Profile } from './mem0-api-schemas';
import { qualifiedEntityId } from './mem0-entity-id';

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
  // The id holds no `/` or `%`: its path segment is the same encoded and decoded (see mem0-entity-id.ts).
  const entityId = qualifiedEntityId(scope.companyId, scope.subjectId);
  let answer: { value: Mem0Profile; usage: MemoryUsage };
  try {
    answer = await context.call({ operation: 'profile (getProfile)' }, mem0ProfileSchema, (client) => client.getProfile({ entityId }));
  } catch (error) {
    // mem0's API reference (Get Profile, GET /v2/entities/{entity_type}/{entity_id}/profile/):
    // "A 404 means only that no such entity exists": a subject with no memories yet.
    if (!MemoryApiCallError.isInstance(error) || error.statusCode !== 404) throw error;
    return {
      summary: '',
      warnings: [{ type: 'other', message: 'mem0 has no profile for this subject: it knows no such user yet (no memories were written for it).' }],
    };
  }
  const { value, usage } = answer;
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
