import { expect } from 'vitest';
import type { MemoryActor } from '../actor/memory-actor';
import type { MemoryService } from '../service/create-memory-service';

// A scenario both stores' tests run through a whole service (not part of the shipped store
// suite): "what did agent X do?" answered by the explorer's `actor` filter, for the calls whose
// scope names no agent (a company-wide search, a cross-company attempt, a call a tool refused).

const admin = (companyId: string): MemoryActor => ({ kind: 'company', companyId, userId: 'admin', role: 'admin' });
const planner: MemoryActor = { kind: 'agent', companyId: 'acme', agentId: 'planner' };
const builder: MemoryActor = { kind: 'agent', companyId: 'acme', agentId: 'builder' };

/**
 * Runs the scenario on `service` (fresh, with the built-in `memory` provider, companies `acme`
 * and `globex` unused so far) and checks what the explorer's `actor` filter finds.
 */
export async function checkActorFilter(service: MemoryService): Promise<void> {
  for (const companyId of ['acme', 'globex']) {
    const control = service.control({ actor: admin(companyId) });
    await control.createBinding({ key: 'default', providerId: 'memory' });
    await control.setTarget({ targetType: 'company' }, 'default');
  }
  await service.runtime({ actor: admin('globex') }).upsertRecords({ records: [{ text: 'Globex keeps its launch codes offline.' }] });

  const asPlanner = service.runtime({ actor: planner });
  await asPlanner.upsertRecords({ records: [{ text: 'The deploy window is Tuesday.' }] });
  // A search of the whole company: its scope names no agent.
  await asPlanner.query({ query: 'deploy window' });
  // Cross-company attempts, through the call context and through the scope: refused, and logged under the planner's own company.
  await expect(service.runtime({ actor: planner, companyId: 'globex' }).query({ query: 'launch codes' })).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
  await expect(asPlanner.query({ query: 'launch codes', scope: { companyId: 'globex' } })).rejects.toMatchObject({ code: 'MEMORY_SCOPE_VIOLATION' });
  // A call an agent tool refused before the runtime.
  await asPlanner.logRefusedCall({ operation: 'query', via: 'memory.search', code: 'MEMORY_SCOPE_VIOLATION', fields: ['companyId'] });
  // Others: another agent, and the scheduler acting in the planner's scope (the scope names the planner; the planner did not call).
  await service.runtime({ actor: builder }).query({ query: 'deploy window' });
  await service.runtime({ actor: { kind: 'system', component: 'heartbeat' }, companyId: 'acme' }).query({ query: 'deploy window', scope: { agentId: 'planner' } });

  const explorer = service.explorer({ actor: admin('acme') });
  const all = (await explorer.listOperations({ limit: 200 })).items;
  const described = (items: typeof all) => items.map((entry) => `${entry.operation}:${entry.status}:${entry.actor.kind}:${entry.actor.id}:${entry.scope.agentId ?? '-'}`);
  const byActor = (await explorer.listOperations({ actor: 'planner' })).items;
  expect(described(byActor)).toEqual([
    'query:failed:agent:planner:-',
    'query:failed:agent:planner:-',
    'query:failed:agent:planner:-',
    'query:succeeded:agent:planner:-',
    'record_upsert:succeeded:agent:planner:planner',
  ]);
  expect(byActor.map((entry) => entry.id)).toEqual(all.filter((entry) => entry.actor.id === 'planner').map((entry) => entry.id));
  expect(byActor.slice(0, 3).map((entry) => entry.errorCode)).toEqual(['MEMORY_SCOPE_VIOLATION', 'MEMORY_SCOPE_VIOLATION', 'MEMORY_SCOPE_VIOLATION']);
  // The scope filter answers another question: the planner's own write, and the scheduler's call in its scope.
  expect(described((await explorer.listOperations({ agentId: 'planner' })).items)).toEqual(['query:succeeded:system:heartbeat:planner', 'record_upsert:succeeded:agent:planner:planner']);
  // The kind narrows the actor; other filters combine with it; the pages walk it.
  expect((await explorer.listOperations({ actor: 'planner', actorKind: 'agent' })).items.map((entry) => entry.id)).toEqual(byActor.map((entry) => entry.id));
  expect((await explorer.listOperations({ actor: 'planner', actorKind: 'operator' })).items).toEqual([]);
  expect(described((await explorer.listOperations({ actor: 'planner', status: 'succeeded', operation: 'query' })).items)).toEqual(['query:succeeded:agent:planner:-']);
  const first = await explorer.listOperations({ actor: 'planner', limit: 2 });
  const rest = await explorer.listOperations({ actor: 'planner', limit: 10, cursor: first.nextCursor });
  expect([...first.items, ...rest.items].map((entry) => entry.id)).toEqual(byActor.map((entry) => entry.id));
  await expect(explorer.listOperations({ actor: 'builder', limit: 2, cursor: first.nextCursor })).rejects.toMatchObject({ reason: 'stale' });
  // The planner's refusals stay in its own company: globex's log never shows them.
  expect((await service.explorer({ actor: admin('globex') }).listOperations({ actor: 'planner' })).items).toEqual([]);
  // The kind alone is refused, naming the field: it has no index of its own.
  await expect(explorer.listOperations({ actorKind: 'agent' })).rejects.toMatchObject({ field: 'actorKind' });
  await expect(explorer.listOperations({ actor: 'x'.repeat(1000) })).rejects.toMatchObject({ field: 'actor' });
}
