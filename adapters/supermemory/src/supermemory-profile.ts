import type { MemoryProfile, MemoryScope, MemoryWarning } from '@memplane/core';
import type { SupermemoryAdapterContext } from './supermemory-adapter-context';
import { profileResponseSchema } from './supermemory-api-schemas';
import { narrowsBelowCompany, scopeToConditions } from './supermemory-scope-mapping';

/**
 * `profile`: `client.profile` (`POST /v4/profile`) for the company's container, with the scope
 * fields as filters. Supermemory returns lists of static facts and dynamic context as plain
 * strings, without record ids, so the profile has a summary and no items.
 */
export async function getSupermemoryProfile(context: SupermemoryAdapterContext, scope: MemoryScope): Promise<MemoryProfile> {
  const warnings: MemoryWarning[] = [];
  const { value, usage } = await context.call(
    { operation: 'profile' },
    profileResponseSchema,
    (options) =>
      context.client.profile(
        {
          containerTag: context.containerTagOf(scope.companyId),
          ...(narrowsBelowCompany(scope) ? { filters: { AND: scopeToConditions(scope) } } : {}),
        },
        options,
      ),
    (response) => response.searchResults?.timing,
  );
  const lines = [...value.profile.static, ...value.profile.dynamic].map((line) => line.trim()).filter((line) => line !== '');
  if (lines.length > 0) {
    warnings.push({ type: 'compatibility', feature: 'items', details: 'Supermemory profiles are plain strings without record ids, so no items are returned.' });
  }
  return { summary: lines.join('\n'), usage: [usage], warnings };
}
