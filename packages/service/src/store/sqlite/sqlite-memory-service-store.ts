import { MemoryConflictError, MemoryValidationError, parseInput } from '@memplane/core';
import { z } from 'zod';
import type { MemoryBinding, ResolvedMemoryBinding } from '../../bindings/memory-binding';
import type { MemoryActivityEntry } from '../memory-service-records';
import type { MemoryServiceStore } from '../memory-service-store';
import { createSqliteBindingCache } from './sqlite-binding-cache';
import { openSqliteConnection } from './sqlite-connection';
import { createSqliteAccountingMethods } from './sqlite-accounting-methods';
import { createSqliteLogMethods, insertRowsSql } from './sqlite-log-methods';
import { createSqliteUsageMethods } from './sqlite-usage-methods';
import { createSqliteRecordRegistryMethods } from './sqlite-record-registry-methods';
import { createSqliteDeliveryKeyMethods } from './sqlite-delivery-key-methods';
import { createSqliteTokenMethods } from './sqlite-token-methods';
import { applySqliteMigrations } from './sqlite-migrations';
import { activityColumns, activityValues, bindingColumns, bindingValues, rowToBinding as toBinding, rowToTarget } from '../support/binding-rows';
import { jsonAsTextCodec, type StoreRow } from '../support/store-row-codec';

/** Settings of {@link createSqliteMemoryServiceStore}. */
export interface SqliteMemoryServiceStoreSettings {
  /**
   * The database file, created if missing, or `:memory:` for a store that lives as long as the
   * process. Files use WAL journaling, so readers never block the writer. The file and its
   * `-wal` and `-shm` companions have mode 0600 whatever the umask; an existing file readable
   * by the group or others is tightened when the store opens it. Default `:memory:`.
   */
  filename?: string;
  /** How long a write waits for another process's lock on the file, in milliseconds. Default 5000. */
  busyTimeoutMs?: number;
}

const settingsSchema = z.strictObject({
  filename: z.string().min(1).max(4096).optional(),
  busyTimeoutMs: z.number().int().min(0).max(600_000).optional(),
});

type Row = StoreRow;
const rowToBinding = (row: Row) => toBinding(row, jsonAsTextCodec);

/** The values of a binding update: the changed columns (all but id, company and creation time), then the id and company. */
function updatedBindingValues(binding: MemoryBinding): unknown[] {
  const [id, companyId, ...rest] = bindingValues(binding);
  const createdAt = bindingColumns.findIndex((column) => column.name === 'created_at') - 2;
  return [...rest.filter((_, index) => index !== createdAt), id, companyId];
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT');
}

function duplicateKey(cause: unknown): MemoryValidationError {
  return new MemoryValidationError({
    target: 'binding',
    issues: [{ path: 'key', message: 'is already used by another binding of this company' }],
    cause,
  });
}

const bindingColumnList = bindingColumns.map((column) => column.name).join(', ');
const selectBindingByKey = `SELECT ${bindingColumnList} FROM memory_bindings WHERE company_id = ? AND key = ?`;
const selectBindingById = `SELECT ${bindingColumnList} FROM memory_bindings WHERE company_id = ? AND id = ?`;
// One indexed read: the agent's target sorts before the company's, disabled bindings are skipped.
const selectResolution = `SELECT ${bindingColumns
  .map((column) => column.name)
  .map((column) => `b.${column}`)
  .join(', ')}, t.target_type
  FROM memory_binding_targets t JOIN memory_bindings b ON b.id = t.binding_id AND b.company_id = t.company_id
  WHERE t.company_id = @company AND b.enabled = 1
    AND ((t.target_type = 'agent' AND t.target_id = @agent) OR (t.target_type = 'company' AND t.target_id = @company))
  ORDER BY CASE t.target_type WHEN 'agent' THEN 0 ELSE 1 END
  LIMIT 1`;

/**
 * The embedded store on better-sqlite3: the default of the service. Statements run
 * synchronously inside async methods, each log append in one transaction. The schema is
 * versioned (`memplane_schema_migrations`) and brought up to date by `migrate()`.
 */
export function createSqliteMemoryServiceStore(settings: SqliteMemoryServiceStoreSettings = {}): MemoryServiceStore {
  const valid = parseInput(settingsSchema, settings, 'SQLite store settings', 'settings');
  const filename = valid.filename ?? ':memory:';
  const connection = openSqliteConnection(filename, valid.busyTimeoutMs ?? 5000);
  const { open, prepare, transaction } = connection;
  const cache = createSqliteBindingCache(open);
  // Binding and target writes clear the cache even when they fail: a clear costs one reload.
  const changingBindings = <Result>(work: () => Result): Result => {
    try {
      return transaction(work);
    } finally {
      cache.clear();
    }
  };

  const insertActivity = (entries: MemoryActivityEntry[]) => {
    const statement = prepare(insertRowsSql('memory_activity', activityColumns));
    for (const entry of entries) statement.run(activityValues(entry));
  };

  const store: MemoryServiceStore = {
    kind: 'sqlite',

    async migrate() {
      applySqliteMigrations(open());
    },

    async close() {
      connection.close();
    },

    async appendActivity(entries) {
      transaction(() => insertActivity(entries));
    },

    async insertBinding(binding, activity) {
      try {
        changingBindings(() => {
          prepare(insertRowsSql('memory_bindings', bindingColumns)).run(bindingValues(binding));
          insertActivity(activity);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateKey(error);
        throw error;
      }
    },

    async updateBinding(binding, expectedRevision, activity) {
      try {
        changingBindings(() => {
          const result = prepare(
            `UPDATE memory_bindings SET key = ?, provider_id = ?, config_json = ?, enabled = ?, hooks_json = ?, capabilities_json = ?,
               quota_json = ?, revision = ?, updated_at = ?
             WHERE id = ? AND company_id = ? AND revision = ?`,
          ).run(...updatedBindingValues(binding), expectedRevision);
          if (result.changes === 0) {
            throw new MemoryConflictError({
              message: `Binding ${binding.id} changed meanwhile (expected revision ${expectedRevision}); read it again and retry.`,
            });
          }
          insertActivity(activity);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateKey(error);
        throw error;
      }
    },

    async deleteBinding(companyId, bindingId, activity) {
      return changingBindings(() => {
        prepare('DELETE FROM memory_binding_targets WHERE company_id = ? AND binding_id = ?').run(companyId, bindingId);
        const removed = prepare('DELETE FROM memory_bindings WHERE company_id = ? AND id = ?').run(companyId, bindingId).changes > 0;
        if (removed) {
          // What the service counted for the binding goes with it.
          prepare('DELETE FROM memory_binding_usage WHERE company_id = ? AND binding_id = ?').run(companyId, bindingId);
          prepare('DELETE FROM memory_binding_records WHERE company_id = ? AND binding_id = ?').run(companyId, bindingId);
          // The registry stays: the records live on at the provider, and must stay foreign to every other company.
          insertActivity(activity);
        }
        return removed;
      });
    },

    async getBindingByKey(companyId, key) {
      open();
      return cache.read(`key\u0000${companyId}\u0000${key}`, () => {
        const row = prepare(selectBindingByKey).get(companyId, key) as Row | undefined;
        return row === undefined ? undefined : rowToBinding(row);
      });
    },

    async getBindingById(companyId, bindingId) {
      open();
      return cache.read(`id\u0000${companyId}\u0000${bindingId}`, () => {
        const row = prepare(selectBindingById).get(companyId, bindingId) as Row | undefined;
        return row === undefined ? undefined : rowToBinding(row);
      });
    },

    async listBindings(companyId) {
      const rows = prepare(`SELECT ${bindingColumnList} FROM memory_bindings WHERE company_id = ? ORDER BY key`).all(companyId) as Row[];
      return rows.map(rowToBinding);
    },

    async putTarget(target, activity) {
      changingBindings(() => {
        const binding = prepare('SELECT 1 FROM memory_bindings WHERE company_id = ? AND id = ?').get(target.companyId, target.bindingId);
        if (binding === undefined) {
          throw new MemoryValidationError({
            target: 'binding target',
            issues: [{ path: 'bindingId', message: 'no such binding in this company' }],
          });
        }
        prepare(
          `INSERT INTO memory_binding_targets (company_id, target_type, target_id, binding_id, created_at, updated_at)
           VALUES (@companyId, @targetType, @targetId, @bindingId, @createdAt, @updatedAt)
           ON CONFLICT (company_id, target_type, target_id) DO UPDATE SET binding_id = excluded.binding_id, updated_at = excluded.updated_at`,
        ).run({ ...target });
        insertActivity(activity);
      });
    },

    async deleteTarget(companyId, targetType, targetId, activity) {
      return changingBindings(() => {
        const removed =
          prepare('DELETE FROM memory_binding_targets WHERE company_id = ? AND target_type = ? AND target_id = ?').run(
            companyId,
            targetType,
            targetId,
          ).changes > 0;
        if (removed) insertActivity(activity);
        return removed;
      });
    },

    async getTarget(companyId, targetType, targetId) {
      const row = prepare(
        'SELECT * FROM memory_binding_targets WHERE company_id = ? AND target_type = ? AND target_id = ?',
      ).get(companyId, targetType, targetId) as Row | undefined;
      return row === undefined ? undefined : rowToTarget(row);
    },

    async listTargets(companyId) {
      const rows = prepare(
        'SELECT * FROM memory_binding_targets WHERE company_id = ? ORDER BY target_type, target_id',
      ).all(companyId) as Row[];
      return rows.map(rowToTarget);
    },

    async resolveBinding(companyId, agentId) {
      open();
      return cache.read(`resolve\u0000${companyId}\u0000${agentId ?? ''}`, (): ResolvedMemoryBinding | undefined => {
        const row = prepare(selectResolution).get({ company: companyId, agent: agentId ?? null }) as Row | undefined;
        if (row === undefined) return undefined;
        return { binding: rowToBinding(row) satisfies MemoryBinding, resolvedBy: row.target_type === 'agent' ? 'agent' : 'company' };
      });
    },

    ...createSqliteLogMethods(connection),
    ...createSqliteAccountingMethods(connection),
    ...createSqliteUsageMethods(connection),
    ...createSqliteRecordRegistryMethods(connection),
    ...createSqliteDeliveryKeyMethods(connection),
    ...createSqliteTokenMethods(connection),
  };
  return store;
}
