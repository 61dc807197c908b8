import { MemoryConflictError, MemoryValidationError } from '@memplane/core';
import type { MemoryActivityEntry } from '../memory-service-records';
import { constraintOf, sqlStateOf, toStoreError, type PostgresConnection, type Queryable } from './postgres-connection';
import { activityColumns, activityValues, bindingColumns, bindingValues, rowToBinding as toBinding, rowToTarget } from '../support/binding-rows';
import { jsonParsedCodec, type StoreRow } from '../support/store-row-codec';
import type { MemoryStoreBindingMethods } from '../memory-store-method-groups';
import { batchInsertSql, batchParametersOf } from './postgres-batch-insert';

type Row = StoreRow;
const rowToBinding = (row: Row) => toBinding(row, jsonParsedCodec);
const bindingColumnList = bindingColumns.map((column) => column.name).join(', ');


function uniqueViolation(error: unknown): MemoryValidationError | undefined {
  if (sqlStateOf(error) !== '23505') return undefined;
  const field = constraintOf(error) === 'memory_bindings_pkey' ? 'id' : 'key';
  return new MemoryValidationError({
    target: 'binding',
    issues: [{ path: field, message: `is already used by another binding${field === 'key' ? ' of this company' : ''}` }],
    cause: error,
  });
}

/** Runs a store call, turning driver errors into the memplane hierarchy. */
export async function storeCall<Result>(operation: string, work: () => Promise<Result>): Promise<Result> {
  try {
    return await work();
  } catch (error) {
    throw toStoreError(error, operation);
  }
}

/** A binding write: a duplicate key (or id) is a validation error naming the field. */
async function bindingWrite<Result>(operation: string, work: () => Promise<Result>): Promise<Result> {
  try {
    return await work();
  } catch (error) {
    throw uniqueViolation(error) ?? toStoreError(error, operation);
  }
}

/** Bindings, targets and resolution, each change in one transaction with its activity entries. */
export function createPostgresBindingMethods(connection: PostgresConnection, table: (name: string) => string): MemoryStoreBindingMethods {
  const insertActivitySql = batchInsertSql(table('memory_activity'), activityColumns);
  const insertActivity = async (client: Queryable, entries: MemoryActivityEntry[]) => {
    if (entries.length > 0) await client.query(insertActivitySql, batchParametersOf(entries, activityValues, activityColumns.length));
  };
  const bindingPlaceholders = bindingColumns.map((_, index) => `$${index + 1}`).join(', ');
  const qualifiedColumns = bindingColumns.map((column) => `b.${column.name}`).join(', ');
  // One indexed read: the agent's target sorts before the company's, disabled bindings are skipped.
  const resolutionSql = `SELECT ${qualifiedColumns}, t.target_type
    FROM ${table('memory_binding_targets')} t JOIN ${table('memory_bindings')} b ON b.id = t.binding_id AND b.company_id = t.company_id
    WHERE t.company_id = $1 AND b.enabled
      AND ((t.target_type = 'agent' AND t.target_id = $2) OR (t.target_type = 'company' AND t.target_id = $1))
    ORDER BY CASE t.target_type WHEN 'agent' THEN 0 ELSE 1 END
    LIMIT 1`;

  return {
    appendActivity: (entries) =>
      bindingWrite('append activity', () => connection.transaction(async (client) => insertActivity(client, entries))),

    insertBinding: (binding, activity) =>
      bindingWrite('insert a binding', () =>
        connection.transaction(async (client) => {
          await client.query(`INSERT INTO ${table('memory_bindings')} (${bindingColumnList}) VALUES (${bindingPlaceholders})`, bindingValues(binding));
          await insertActivity(client, activity);
        }),
      ),

    updateBinding: (binding, expectedRevision, activity) =>
      bindingWrite('update a binding', () =>
        connection.transaction(async (client) => {
          const [id, companyId, key, providerId, config, enabled, hooks, capabilities, quota, revision, , updatedAt] = bindingValues(binding);
          const values = [id, companyId, key, providerId, config, enabled, hooks, capabilities, quota, revision, updatedAt];
          const result = await client.query(
            `UPDATE ${table('memory_bindings')} SET key = $3, provider_id = $4, config_json = $5, enabled = $6, hooks_json = $7,
               capabilities_json = $8, quota_json = $9, revision = $10, updated_at = $11
             WHERE id = $1 AND company_id = $2 AND revision = $12`,
            [...values, expectedRevision],
          );
          if (result.rowCount === 0) {
            throw new MemoryConflictError({
              message: `Binding ${binding.id} changed meanwhile (expected revision ${expectedRevision}); read it again and retry.`,
            });
          }
          await insertActivity(client, activity);
        }),
      ),

    deleteBinding: (companyId, bindingId, activity) =>
      storeCall('delete a binding', () =>
        connection.transaction(async (client) => {
          await client.query(`DELETE FROM ${table('memory_binding_targets')} WHERE company_id = $1 AND binding_id = $2`, [companyId, bindingId]);
          const result = await client.query(`DELETE FROM ${table('memory_bindings')} WHERE company_id = $1 AND id = $2`, [companyId, bindingId]);
          const removed = (result.rowCount ?? 0) > 0;
          if (removed) {
            // What the service counted for the binding goes with it.
            await client.query(`DELETE FROM ${table('memory_binding_usage')} WHERE company_id = $1 AND binding_id = $2`, [companyId, bindingId]);
            await client.query(`DELETE FROM ${table('memory_binding_records')} WHERE company_id = $1 AND binding_id = $2`, [companyId, bindingId]);
            // The registry stays: the records live on at the provider, and must stay foreign to every other company.
            await insertActivity(client, activity);
          }
          return removed;
        }),
      ),

    getBindingByKey: (companyId, key) =>
      storeCall('read a binding', async () => {
        const rows = await connection.query<Row>(`SELECT ${bindingColumnList} FROM ${table('memory_bindings')} WHERE company_id = $1 AND key = $2`, [
          companyId,
          key,
        ]);
        return rows[0] === undefined ? undefined : rowToBinding(rows[0]);
      }),

    getBindingById: (companyId, bindingId) =>
      storeCall('read a binding', async () => {
        const rows = await connection.query<Row>(`SELECT ${bindingColumnList} FROM ${table('memory_bindings')} WHERE company_id = $1 AND id = $2`, [
          companyId,
          bindingId,
        ]);
        return rows[0] === undefined ? undefined : rowToBinding(rows[0]);
      }),

    listBindings: (companyId) =>
      storeCall('list bindings', async () => {
        const rows = await connection.query<Row>(`SELECT ${bindingColumnList} FROM ${table('memory_bindings')} WHERE company_id = $1 ORDER BY key`, [
          companyId,
        ]);
        return rows.map(rowToBinding);
      }),

    putTarget: (target, activity) =>
      storeCall('set a target', () =>
        connection.transaction(async (client) => {
          // The lock keeps the binding from being deleted between this check and the write.
          const found = await client.query(`SELECT 1 FROM ${table('memory_bindings')} WHERE company_id = $1 AND id = $2 FOR SHARE`, [
            target.companyId,
            target.bindingId,
          ]);
          if (found.rows.length === 0) {
            throw new MemoryValidationError({ target: 'binding target', issues: [{ path: 'bindingId', message: 'no such binding in this company' }] });
          }
          await client.query(
            `INSERT INTO ${table('memory_binding_targets')} (company_id, target_type, target_id, binding_id, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (company_id, target_type, target_id) DO UPDATE SET binding_id = excluded.binding_id, updated_at = excluded.updated_at`,
            [target.companyId, target.targetType, target.targetId, target.bindingId, target.createdAt, target.updatedAt],
          );
          await insertActivity(client, activity);
        }),
      ),

    deleteTarget: (companyId, targetType, targetId, activity) =>
      storeCall('remove a target', () =>
        connection.transaction(async (client) => {
          const result = await client.query(
            `DELETE FROM ${table('memory_binding_targets')} WHERE company_id = $1 AND target_type = $2 AND target_id = $3`,
            [companyId, targetType, targetId],
          );
          const removed = (result.rowCount ?? 0) > 0;
          if (removed) await insertActivity(client, activity);
          return removed;
        }),
      ),

    getTarget: (companyId, targetType, targetId) =>
      storeCall('read a target', async () => {
        const rows = await connection.query<Row>(
          `SELECT * FROM ${table('memory_binding_targets')} WHERE company_id = $1 AND target_type = $2 AND target_id = $3`,
          [companyId, targetType, targetId],
        );
        return rows[0] === undefined ? undefined : rowToTarget(rows[0]);
      }),

    listTargets: (companyId) =>
      storeCall('list targets', async () => {
        const rows = await connection.query<Row>(
          `SELECT * FROM ${table('memory_binding_targets')} WHERE company_id = $1 ORDER BY target_type, target_id`,
          [companyId],
        );
        return rows.map(rowToTarget);
      }),

    resolveBinding: (companyId, agentId) =>
      storeCall('resolve a binding', async () => {
        const rows = await connection.query<Row>(resolutionSql, [companyId, agentId ?? null]);
        const row = rows[0];
        if (row === undefined) return undefined;
        return { binding: rowToBinding(row), resolvedBy: row.target_type === 'agent' ? ('agent' as const) : ('company' as const) };
      }),
  };
}
