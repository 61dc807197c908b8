import type { MemoryBindingUsage } from '../memory-accounting-records';
import type { MemoryStoreUsageMethods } from '../memory-store-method-groups';
import { operationValues } from '../support/operation-rows';
import { operationFilterQuery, sqliteDialect } from '../support/store-filters';
import type { SqliteConnection } from './sqlite-connection';
import { insertOperation } from './sqlite-log-methods';
import { narrowToHours, recordOperationHours } from './sqlite-operation-hours';


/** The per-binding usage that quotas check, and the retention of the operation log. */
export function createSqliteUsageMethods(connection: SqliteConnection): MemoryStoreUsageMethods {
  const { prepare, transaction } = connection;

  const readUsage = (companyId: string, bindingId: string): MemoryBindingUsage => {
    const row = prepare('SELECT records, bytes FROM memory_binding_usage WHERE company_id = ? AND binding_id = ?').get(companyId, bindingId) as
      | { records: number; bytes: number }
      | undefined;
    return { records: Number(row?.records ?? 0), bytes: Number(row?.bytes ?? 0) };
  };
  const ensureUsage = (companyId: string, bindingId: string) =>
    prepare('INSERT INTO memory_binding_usage (binding_id, company_id, records, bytes) VALUES (?, ?, 0, 0) ON CONFLICT (binding_id) DO NOTHING').run(
      bindingId,
      companyId,
    );
  // Usage never goes below zero, whatever was released. The row exists after the first write of
  // a binding, so it is only created when the update finds none: one statement on the hot path.
  const adjust = (companyId: string, bindingId: string, records: number, bytes: number) => {
    const update = prepare(
      `UPDATE memory_binding_usage SET records = MAX(0, records + ?), bytes = MAX(0, bytes + ?)
       WHERE company_id = ? AND binding_id = ?`,
    );
    if (update.run(records, bytes, companyId, bindingId).changes > 0) return;
    ensureUsage(companyId, bindingId);
    update.run(records, bytes, companyId, bindingId);
  };

  return {
    async getBindingUsage(companyId, bindingId) {
      return readUsage(companyId, bindingId);
    },

    async reserveBindingUsage(companyId, bindingId, delta, caps) {
      return transaction(() => {
        ensureUsage(companyId, bindingId);
        const before = readUsage(companyId, bindingId);
        // A cap only limits what grows: a write that adds no records passes a records cap already reached.
        const result = prepare(
          `UPDATE memory_binding_usage SET records = records + @records, bytes = bytes + @bytes
           WHERE company_id = @companyId AND binding_id = @bindingId
             AND (@records = 0 OR @maxRecords IS NULL OR records + @records <= @maxRecords)
             AND (@bytes = 0 OR @maxBytes IS NULL OR bytes + @bytes <= @maxBytes)`,
        ).run({
          companyId,
          bindingId,
          records: delta.records,
          bytes: delta.bytes,
          maxRecords: caps.maxRecords ?? null,
          maxBytes: caps.maxBytes ?? null,
        });
        return { reserved: result.changes > 0, usage: before };
      });
    },

    async releaseBindingUsage(companyId, bindingId, delta) {
      adjust(companyId, bindingId, -delta.records, -delta.bytes);
    },

    async settleBindingUsage(companyId, bindingId, reserved, records) {
      transaction(() => {
        // Most records are new: the insert alone counts them, and only a known one is read and updated.
        const insert = prepare(
          'INSERT INTO memory_binding_records (binding_id, provider_record_id, company_id, bytes) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
        );
        const previous = prepare('SELECT bytes FROM memory_binding_records WHERE binding_id = ? AND provider_record_id = ?');
        const update = prepare('UPDATE memory_binding_records SET bytes = ? WHERE binding_id = ? AND provider_record_id = ?');
        let added = 0;
        let bytes = 0;
        for (const record of records) {
          if (insert.run(bindingId, record.providerRecordId, companyId, record.bytes).changes > 0) {
            added += 1;
            bytes += record.bytes;
            continue;
          }
          const known = previous.get(bindingId, record.providerRecordId) as { bytes: number };
          bytes += record.bytes - Number(known.bytes);
          update.run(record.bytes, bindingId, record.providerRecordId);
        }
        adjust(companyId, bindingId, added - reserved.records, bytes - reserved.bytes);
      });
    },

    async uncountBindingRecords(companyId, bindingId, providerRecordIds) {
      if (providerRecordIds.length === 0) return;
      transaction(() => {
        const remove = prepare('DELETE FROM memory_binding_records WHERE company_id = ? AND binding_id = ? AND provider_record_id = ? RETURNING bytes');
        let removed = 0;
        let bytes = 0;
        for (const id of new Set(providerRecordIds)) {
          const row = remove.get(companyId, bindingId, id) as { bytes: number } | undefined;
          if (row === undefined) continue;
          removed += 1;
          bytes += Number(row.bytes);
        }
        if (removed > 0) adjust(companyId, bindingId, -removed, -bytes);
      });
    },

    async pruneOperations(companyId, before, entry) {
      return transaction(() => {
        // The hours give the positions the cut can reach, so neither statement scans the newer log.
        const query = narrowToHours(connection, operationFilterQuery(sqliteDialect, { companyId, to: before }), { companyId, to: before });
        const where = query.where.join(' AND ');
        const doomed = Number((prepare(`SELECT COUNT(*) AS count FROM memory_operations WHERE ${where}`).get(query.values) as { count: number }).count);
        // The prune's entry goes in first: the table never empties, so positions keep growing.
        const logged = { ...entry, resultCount: doomed };
        recordOperationHours(connection, [logged], Number(prepare(insertOperation).run(operationValues(logged)).lastInsertRowid));
        prepare(`DELETE FROM memory_operations WHERE ${where} AND id <> ?`).run([...query.values, entry.id]);
        // Hours wholly before the cut have no operations left.
        prepare('DELETE FROM memory_operation_hours WHERE company_id = ? AND hour < ?').run(companyId, before.slice(0, 13));
        return doomed;
      });
    },

    async listCompaniesWithOperationsBefore(before) {
      // Candidates come from the hours; the oldest entry of each (first by position) confirms it.
      const rows = prepare(
        `SELECT company_id FROM (SELECT DISTINCT company_id FROM memory_operation_hours WHERE hour <= @hour) AS candidates
         WHERE EXISTS (SELECT 1 FROM memory_operations o WHERE o.company_id = candidates.company_id AND o.created_at < @before)
         ORDER BY company_id`,
      ).all({ hour: before.slice(0, 13), before }) as Array<{ company_id: string }>;
      return rows.map((row) => row.company_id);
    },
  };
}
