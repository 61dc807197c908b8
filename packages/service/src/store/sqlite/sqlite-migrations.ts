import type { Database } from 'better-sqlite3';

/** One schema step. Versions only grow; a released migration never changes. */
export interface SqliteMigration {
  /** The schema version this migration brings the database to. */
  version: number;
  /** What it does. */
  name: string;
  /** The statements, run in one transaction. */
  sql: string;
}

/**
 * The schema of the SQLite store, version by version. Log tables key on an integer `position`
 * (the rowid): it only grows because rows are never deleted, and it orders the keyset pages.
 * No AUTOINCREMENT, which would cost a `sqlite_sequence` write per row.
 */
export const sqliteMigrations: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'bindings, targets, activity, operations, hook deliveries, extraction jobs',
    sql: `
      CREATE TABLE memory_bindings (
        id TEXT PRIMARY KEY,
        company_id TEXT NOT NULL,
        key TEXT NOT NULL,
        provider_id TEXT NOT NULL,
        config_json TEXT NOT NULL,
        enabled INTEGER NOT NULL,
        hooks_json TEXT NOT NULL,
        capabilities_json TEXT NOT NULL,
        revision INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (company_id, key)
      );

      CREATE TABLE memory_binding_targets (
        company_id TEXT NOT NULL,
        target_type TEXT NOT NULL CHECK (target_type IN ('company', 'agent')),
        target_id TEXT NOT NULL,
        binding_id TEXT NOT NULL REFERENCES memory_bindings (id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (company_id, target_type, target_id)
      );
      CREATE INDEX memory_binding_targets_binding ON memory_binding_targets (binding_id);

      CREATE TABLE memory_activity (
        position INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        company_id TEXT NOT NULL,
        actor_kind TEXT NOT NULL,
        actor_id TEXT NOT NULL,
        action TEXT NOT NULL,
        subject_type TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        before_json TEXT,
        after_json TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX memory_activity_company ON memory_activity (company_id, position);

      CREATE TABLE memory_operations (
        position INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        company_id TEXT NOT NULL,
        binding_id TEXT,
        binding_key TEXT,
        provider_id TEXT,
        operation TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
        error_code TEXT,
        error_message TEXT,
        actor_kind TEXT NOT NULL,
        actor_id TEXT NOT NULL,
        agent_id TEXT,
        project_id TEXT,
        issue_id TEXT,
        run_id TEXT,
        subject_id TEXT,
        session_key TEXT,
        namespace TEXT,
        source_kind TEXT,
        source_json TEXT,
        hook_kind TEXT,
        hook_id TEXT,
        heartbeat_run_id TEXT,
        cost_event_id TEXT,
        attribution_mode TEXT,
        usage_json TEXT NOT NULL,
        latency_ms REAL NOT NULL,
        record_ids_json TEXT,
        result_count INTEGER,
        dropped_out_of_scope INTEGER NOT NULL,
        warnings_json TEXT NOT NULL,
        details_json TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX memory_operations_company ON memory_operations (company_id, position);
      CREATE INDEX memory_operations_agent ON memory_operations (company_id, agent_id, position);
      CREATE INDEX memory_operations_issue ON memory_operations (company_id, issue_id, position);
      CREATE INDEX memory_operations_run ON memory_operations (company_id, run_id, position);
      CREATE INDEX memory_operations_heartbeat ON memory_operations (company_id, heartbeat_run_id, position);
      CREATE INDEX memory_operations_created ON memory_operations (company_id, created_at);

      CREATE TABLE memory_hook_deliveries (
        position INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        company_id TEXT NOT NULL,
        hook_id TEXT NOT NULL,
        hook_kind TEXT NOT NULL,
        receiver TEXT NOT NULL,
        binding_id TEXT,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        error TEXT,
        operation_id TEXT,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        latency_ms REAL NOT NULL
      );
      CREATE INDEX memory_hook_deliveries_company ON memory_hook_deliveries (company_id, position);
      CREATE INDEX memory_hook_deliveries_hook ON memory_hook_deliveries (company_id, hook_id);

      CREATE TABLE memory_extraction_jobs (
        position INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        company_id TEXT NOT NULL,
        binding_id TEXT NOT NULL,
        binding_key TEXT NOT NULL,
        operation_id TEXT,
        provider_job_id TEXT NOT NULL,
        hook_kind TEXT,
        status TEXT NOT NULL,
        source_json TEXT,
        scope_json TEXT NOT NULL,
        error TEXT,
        submitted_at TEXT,
        started_at TEXT,
        finished_at TEXT,
        retry_count INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (binding_id, provider_job_id)
      );
      CREATE INDEX memory_extraction_jobs_company ON memory_extraction_jobs (company_id, position);
      CREATE INDEX memory_extraction_jobs_status ON memory_extraction_jobs (company_id, status, position);
    `,
  },
  {
    version: 2,
    name: 'binding quotas and usage, extraction failures, cost events, finance events, operation hours',
    sql: `
      ALTER TABLE memory_bindings ADD COLUMN quota_json TEXT;
      ALTER TABLE memory_operations ADD COLUMN extraction_failures INTEGER;

      -- Date filters go through memory_operation_hours, and an entry without an agent, issue or
      -- run costs no write in that column's index: fewer index writes per logged operation.
      DROP INDEX memory_operations_created;
      DROP INDEX memory_operations_agent;
      DROP INDEX memory_operations_issue;
      DROP INDEX memory_operations_run;
      DROP INDEX memory_operations_heartbeat;
      CREATE INDEX memory_operations_agent ON memory_operations (company_id, agent_id, position) WHERE agent_id IS NOT NULL;
      CREATE INDEX memory_operations_issue ON memory_operations (company_id, issue_id, position) WHERE issue_id IS NOT NULL;
      CREATE INDEX memory_operations_run ON memory_operations (company_id, run_id, position) WHERE run_id IS NOT NULL;
      CREATE INDEX memory_operations_heartbeat ON memory_operations (company_id, heartbeat_run_id, position) WHERE heartbeat_run_id IS NOT NULL;

      CREATE TABLE memory_binding_usage (
        binding_id TEXT PRIMARY KEY,
        company_id TEXT NOT NULL,
        records INTEGER NOT NULL,
        bytes INTEGER NOT NULL
      );

      CREATE TABLE memory_binding_records (
        binding_id TEXT NOT NULL,
        provider_record_id TEXT NOT NULL,
        company_id TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        PRIMARY KEY (binding_id, provider_record_id)
      ) WITHOUT ROWID;

      CREATE TABLE cost_events (
        position INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        company_id TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        binding_id TEXT NOT NULL,
        binding_key TEXT NOT NULL,
        provider TEXT NOT NULL,
        biller TEXT,
        billing_type TEXT,
        model TEXT,
        agent_id TEXT,
        issue_id TEXT,
        run_id TEXT,
        heartbeat_run_id TEXT,
        input_tokens REAL,
        cached_input_tokens REAL,
        output_tokens REAL,
        embedding_tokens REAL,
        cost_cents REAL,
        raw_json TEXT,
        external_id TEXT,
        occurred_at TEXT NOT NULL
      );
      CREATE INDEX cost_events_company ON cost_events (company_id, position);
      CREATE INDEX cost_events_occurred ON cost_events (company_id, occurred_at);
      CREATE INDEX cost_events_operation ON cost_events (company_id, operation_id);

      CREATE TABLE finance_events (
        position INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        company_id TEXT NOT NULL,
        binding_id TEXT,
        binding_key TEXT,
        agent_id TEXT,
        kind TEXT NOT NULL,
        direction TEXT NOT NULL CHECK (direction IN ('debit', 'credit')),
        biller TEXT NOT NULL,
        amount_cents REAL NOT NULL,
        quantity REAL,
        unit TEXT,
        period_start TEXT,
        period_end TEXT,
        estimated INTEGER NOT NULL,
        cost_event_id TEXT,
        description TEXT,
        metadata_json TEXT,
        recorded_by TEXT NOT NULL,
        occurred_at TEXT NOT NULL
      );
      CREATE INDEX finance_events_company ON finance_events (company_id, position);
      CREATE INDEX finance_events_occurred ON finance_events (company_id, occurred_at);

      -- The positions each hour of operations spans, per company: a date range becomes a position range.
      CREATE TABLE memory_operation_hours (
        company_id TEXT NOT NULL,
        hour TEXT NOT NULL,
        min_position INTEGER NOT NULL,
        max_position INTEGER NOT NULL,
        PRIMARY KEY (company_id, hour)
      ) WITHOUT ROWID;
      INSERT INTO memory_operation_hours (company_id, hour, min_position, max_position)
        SELECT company_id, substr(created_at, 1, 13), MIN(position), MAX(position) FROM memory_operations GROUP BY 1, 2;
    `,
  },  {
    version: 3,
    name: 'the registry of record handles written through the service',
    sql: `
      -- Which company, binding and scope each record written through the service belongs to.
      -- Keyed by provider and record id: placing a page of results is one indexed read.
      CREATE TABLE memory_record_registry (
        provider_id TEXT NOT NULL,
        provider_record_id TEXT NOT NULL,
        binding_id TEXT NOT NULL,
        company_id TEXT NOT NULL,
        scope_json TEXT NOT NULL,
        registered_at TEXT NOT NULL,
        PRIMARY KEY (provider_id, provider_record_id, binding_id)
      ) WITHOUT ROWID;
      CREATE INDEX memory_record_registry_binding ON memory_record_registry (company_id, binding_id);
    `,
  },
  {
    version: 4,
    name: 'idempotency keys of queued hook deliveries',
    sql: `
      -- One row per queued delivery's write: started before the provider is called, written
      -- before the job is acknowledged, so a second run of the job can tell what the first did.
      CREATE TABLE memory_delivery_keys (
        company_id TEXT NOT NULL,
        delivery_key TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('started', 'written')),
        attempts INTEGER NOT NULL,
        operation_id TEXT,
        record_ids_json TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (company_id, delivery_key)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 5,
    name: 'an index on the operation log for every explorer filter',
    sql: `
      -- One (company, column, position) index per filter the explorer offers, so the first page of
      -- any filter reads its matches newest first instead of scanning the company's log for them.
      -- Partial where the column is often empty: an entry without it costs no write there. After
      -- position, each carries the other short filter columns: with two filters, the second is
      -- checked in the index (SQLite defers the table read), not by reading every entry's row.
      CREATE INDEX memory_operations_binding ON memory_operations (company_id, binding_id, position, operation, status, source_kind)
        WHERE binding_id IS NOT NULL;
      CREATE INDEX memory_operations_project ON memory_operations (company_id, project_id, position, operation, status, binding_id, source_kind)
        WHERE project_id IS NOT NULL;
      CREATE INDEX memory_operations_source_kind ON memory_operations (company_id, source_kind, position, operation, status, binding_id)
        WHERE source_kind IS NOT NULL;
      CREATE INDEX memory_operations_operation ON memory_operations (company_id, operation, position, status, binding_id, source_kind);
      CREATE INDEX memory_operations_status ON memory_operations (company_id, status, position, operation, binding_id, source_kind);
    `,
  },
  {
    version: 6,
    name: 'an index on the operation log for the actor filter',
    sql: `
      -- Who called (actor_kind, actor_id) is on every entry since the first schema, refused calls
      -- included, so nothing is backfilled: the index makes "what did agent X do?" one index read,
      -- whatever the scope of each call named. Not partial: every entry has an actor. The kind and
      -- the short filter columns follow position, so a second filter is checked in the index.
      CREATE INDEX memory_operations_actor ON memory_operations (company_id, actor_id, position, actor_kind, operation, status, binding_id, source_kind);
    `,
  },
  {
    version: 7,
    name: 'the bearer tokens of the host',
    sql: `
      -- One row per token, kept as the SHA-256 of the token, never the token. Looked up by hash
      -- on every request, so the hash is unique (and indexed); a revocation is one column set once.
      -- Times are ISO 8601 text in one form (the store normalises them), so text order is time order.
      CREATE TABLE memory_tokens (
        id TEXT PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('operator', 'admin', 'agent')),
        grant_json TEXT NOT NULL,
        label TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT
      ) WITHOUT ROWID;
    `,
  },
];

/**
 * Applies every migration newer than the database's version, each in its own transaction,
 * and records it in `memplane_schema_migrations`. Safe to call on every start, and from several
 * processes opening one file at once: each migration takes the write lock first (`BEGIN
 * IMMEDIATE`, waiting up to the busy timeout) and reads the version again under it, so a
 * migration another process applied in the meantime is skipped instead of run twice.
 */
export function applySqliteMigrations(database: Database, migrations: readonly SqliteMigration[] = sqliteMigrations): number {
  database.exec(`
    CREATE TABLE IF NOT EXISTS memplane_schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )
  `);
  const currentVersion = database.prepare('SELECT MAX(version) AS version FROM memplane_schema_migrations');
  const record = database.prepare('INSERT INTO memplane_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applyOne = database.transaction((migration: SqliteMigration): boolean => {
    const current = (currentVersion.get() as { version: number | null }).version ?? 0;
    if (migration.version <= current) return false;
    database.exec(migration.sql);
    record.run(migration.version, migration.name, new Date().toISOString());
    return true;
  });
  let applied = 0;
  for (const migration of [...migrations].sort((left, right) => left.version - right.version)) {
    if (applyOne.immediate(migration)) applied += 1;
  }
  return applied;
}
