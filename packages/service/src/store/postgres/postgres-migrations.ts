import type { Queryable } from './postgres-connection';

/** One schema step of the Postgres store. Versions only grow; a released migration never changes. */
export interface PostgresMigration {
  /** The schema version this migration brings the database to. */
  version: number;
  /** What it does. */
  name: string;
  /** The statements, run in one transaction. `{schema}` stands for the store's quoted schema name. */
  sql: string;
}

/**
 * The schema of the Postgres store, version by version: the same tables as the SQLite store.
 * Log tables key on a `position` identity column, which orders the keyset pages. Times the
 * service writes are `timestamptz`; times a provider reports stay text, exactly as reported.
 * JSON columns are `json`, which keeps the text as written (`jsonb` would refuse `\u0000`).
 * Keys sort with `COLLATE "C"`, byte order, as SQLite does.
 */
export const postgresMigrations: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'bindings, targets, activity, operations, hook deliveries, extraction jobs',
    sql: `
      CREATE TABLE {schema}.memory_bindings (
        id text PRIMARY KEY,
        company_id text NOT NULL,
        key text COLLATE "C" NOT NULL,
        provider_id text NOT NULL,
        config_json json NOT NULL,
        enabled boolean NOT NULL,
        hooks_json json NOT NULL,
        capabilities_json json NOT NULL,
        revision integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT memory_bindings_company_key UNIQUE (company_id, key)
      );

      CREATE TABLE {schema}.memory_binding_targets (
        company_id text NOT NULL,
        target_type text COLLATE "C" NOT NULL CHECK (target_type IN ('company', 'agent')),
        target_id text COLLATE "C" NOT NULL,
        binding_id text NOT NULL REFERENCES {schema}.memory_bindings (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (company_id, target_type, target_id)
      );
      CREATE INDEX memory_binding_targets_binding ON {schema}.memory_binding_targets (binding_id);

      CREATE TABLE {schema}.memory_activity (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        company_id text NOT NULL,
        actor_kind text NOT NULL,
        actor_id text NOT NULL,
        action text NOT NULL,
        subject_type text NOT NULL,
        subject_id text NOT NULL,
        before_json json,
        after_json json,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX memory_activity_company ON {schema}.memory_activity (company_id, position);

      CREATE TABLE {schema}.memory_operations (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        company_id text NOT NULL,
        binding_id text,
        binding_key text COLLATE "C",
        provider_id text,
        operation text COLLATE "C" NOT NULL,
        status text NOT NULL CHECK (status IN ('succeeded', 'failed')),
        error_code text,
        error_message text,
        actor_kind text NOT NULL,
        actor_id text NOT NULL,
        agent_id text,
        project_id text,
        issue_id text,
        run_id text,
        subject_id text,
        session_key text,
        namespace text,
        source_kind text,
        source_json json,
        hook_kind text,
        hook_id text,
        heartbeat_run_id text,
        cost_event_id text,
        attribution_mode text,
        usage_json json NOT NULL,
        latency_ms double precision NOT NULL,
        record_ids_json json,
        result_count integer,
        dropped_out_of_scope integer NOT NULL,
        warnings_json json NOT NULL,
        details_json json,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX memory_operations_company ON {schema}.memory_operations (company_id, position);
      CREATE INDEX memory_operations_agent ON {schema}.memory_operations (company_id, agent_id, position);
      CREATE INDEX memory_operations_issue ON {schema}.memory_operations (company_id, issue_id, position);
      CREATE INDEX memory_operations_run ON {schema}.memory_operations (company_id, run_id, position);
      CREATE INDEX memory_operations_heartbeat ON {schema}.memory_operations (company_id, heartbeat_run_id, position);
      CREATE INDEX memory_operations_created ON {schema}.memory_operations (company_id, created_at);

      CREATE TABLE {schema}.memory_hook_deliveries (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        company_id text NOT NULL,
        hook_id text NOT NULL,
        hook_kind text NOT NULL,
        receiver text NOT NULL,
        binding_id text,
        status text NOT NULL,
        attempts integer NOT NULL,
        error text,
        operation_id text,
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL,
        latency_ms double precision NOT NULL
      );
      CREATE INDEX memory_hook_deliveries_company ON {schema}.memory_hook_deliveries (company_id, position);
      CREATE INDEX memory_hook_deliveries_hook ON {schema}.memory_hook_deliveries (company_id, hook_id);

      CREATE TABLE {schema}.memory_extraction_jobs (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        company_id text NOT NULL,
        binding_id text NOT NULL,
        binding_key text NOT NULL,
        operation_id text,
        provider_job_id text NOT NULL,
        hook_kind text,
        status text NOT NULL,
        source_json json,
        scope_json json NOT NULL,
        error text,
        submitted_at text,
        started_at text,
        finished_at text,
        retry_count integer NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT memory_extraction_jobs_provider_job UNIQUE (binding_id, provider_job_id)
      );
      CREATE INDEX memory_extraction_jobs_company ON {schema}.memory_extraction_jobs (company_id, position);
      CREATE INDEX memory_extraction_jobs_status ON {schema}.memory_extraction_jobs (company_id, status, position);
    `,
  },
  {
    version: 2,
    name: 'binding quotas and usage, extraction failures, cost events, finance events, operation hours',
    sql: `
      ALTER TABLE {schema}.memory_bindings ADD COLUMN quota_json json;
      ALTER TABLE {schema}.memory_operations ADD COLUMN extraction_failures integer;

      -- Date filters go through memory_operation_hours, and an entry without an agent, issue or
      -- run costs no write in that column's index: fewer index writes per logged operation.
      DROP INDEX {schema}.memory_operations_created;
      DROP INDEX {schema}.memory_operations_agent;
      DROP INDEX {schema}.memory_operations_issue;
      DROP INDEX {schema}.memory_operations_run;
      DROP INDEX {schema}.memory_operations_heartbeat;
      CREATE INDEX memory_operations_agent ON {schema}.memory_operations (company_id, agent_id, position) WHERE agent_id IS NOT NULL;
      CREATE INDEX memory_operations_issue ON {schema}.memory_operations (company_id, issue_id, position) WHERE issue_id IS NOT NULL;
      CREATE INDEX memory_operations_run ON {schema}.memory_operations (company_id, run_id, position) WHERE run_id IS NOT NULL;
      CREATE INDEX memory_operations_heartbeat ON {schema}.memory_operations (company_id, heartbeat_run_id, position)
        WHERE heartbeat_run_id IS NOT NULL;

      CREATE TABLE {schema}.memory_binding_usage (
        binding_id text PRIMARY KEY,
        company_id text NOT NULL,
        records bigint NOT NULL,
        bytes bigint NOT NULL
      );

      CREATE TABLE {schema}.memory_binding_records (
        binding_id text NOT NULL,
        provider_record_id text NOT NULL,
        company_id text NOT NULL,
        bytes bigint NOT NULL,
        PRIMARY KEY (binding_id, provider_record_id)
      );

      CREATE TABLE {schema}.cost_events (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        company_id text NOT NULL,
        operation_id text NOT NULL,
        binding_id text NOT NULL,
        binding_key text COLLATE "C" NOT NULL,
        provider text NOT NULL,
        biller text,
        billing_type text,
        model text,
        agent_id text COLLATE "C",
        issue_id text,
        run_id text,
        heartbeat_run_id text,
        input_tokens double precision,
        cached_input_tokens double precision,
        output_tokens double precision,
        embedding_tokens double precision,
        cost_cents double precision,
        raw_json json,
        external_id text,
        occurred_at timestamptz NOT NULL
      );
      CREATE INDEX cost_events_company ON {schema}.cost_events (company_id, position);
      CREATE INDEX cost_events_occurred ON {schema}.cost_events (company_id, occurred_at);
      CREATE INDEX cost_events_operation ON {schema}.cost_events (company_id, operation_id);

      CREATE TABLE {schema}.finance_events (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        company_id text NOT NULL,
        binding_id text,
        binding_key text COLLATE "C",
        agent_id text COLLATE "C",
        kind text NOT NULL,
        direction text NOT NULL CHECK (direction IN ('debit', 'credit')),
        biller text NOT NULL,
        amount_cents double precision NOT NULL,
        quantity double precision,
        unit text,
        period_start timestamptz,
        period_end timestamptz,
        estimated boolean NOT NULL,
        cost_event_id text,
        description text,
        metadata_json json,
        recorded_by text NOT NULL,
        occurred_at timestamptz NOT NULL
      );
      CREATE INDEX finance_events_company ON {schema}.finance_events (company_id, position);
      CREATE INDEX finance_events_occurred ON {schema}.finance_events (company_id, occurred_at);

      -- The positions each hour of operations spans, per company: a date range becomes a position range.
      CREATE TABLE {schema}.memory_operation_hours (
        company_id text NOT NULL,
        hour timestamptz NOT NULL,
        min_position bigint NOT NULL,
        max_position bigint NOT NULL,
        PRIMARY KEY (company_id, hour)
      );
      INSERT INTO {schema}.memory_operation_hours (company_id, hour, min_position, max_position)
        SELECT company_id, date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', min(position), max(position)
        FROM {schema}.memory_operations GROUP BY 1, 2;
    `,
  },
  {
    version: 3,
    name: 'operations keyed by company and position: one index fewer per logged operation',
    sql: `
      -- Every read of the log names the company, so (company_id, position) serves all of them,
      -- and a separate index on position alone only cost a write per appended operation.
      ALTER TABLE {schema}.memory_operations DROP CONSTRAINT memory_operations_pkey;
      DROP INDEX {schema}.memory_operations_company;
      ALTER TABLE {schema}.memory_operations ADD CONSTRAINT memory_operations_pkey PRIMARY KEY (company_id, position);
    `,
  },  {
    version: 4,
    name: 'the registry of record handles written through the service',
    sql: `
      -- Which company, binding and scope each record written through the service belongs to.
      CREATE TABLE {schema}.memory_record_registry (
        provider_id text NOT NULL,
        provider_record_id text NOT NULL,
        binding_id text NOT NULL,
        company_id text NOT NULL,
        scope_json jsonb NOT NULL,
        registered_at timestamptz NOT NULL,
        PRIMARY KEY (provider_id, provider_record_id, binding_id)
      );
      CREATE INDEX memory_record_registry_binding ON {schema}.memory_record_registry (company_id, binding_id);
    `,
  },
  {
    version: 5,
    name: 'idempotency keys of queued hook deliveries',
    sql: `
      CREATE TABLE {schema}.memory_delivery_keys (
        company_id text NOT NULL,
        delivery_key text NOT NULL,
        state text NOT NULL CHECK (state IN ('started', 'written')),
        attempts integer NOT NULL,
        operation_id text,
        record_ids_json jsonb,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (company_id, delivery_key)
      );
    `,
  },
  {
    version: 6,
    name: 'an index on the operation log for every explorer filter',
    sql: `
      -- One (company, column, position) index per filter the explorer offers, so the first page of
      -- any filter reads its matches newest first (an index scan backward) instead of scanning the
      -- company's log for them. Partial where the column is often empty: no write there then.
      -- Built inside the migration's transaction: appends wait while an existing log is indexed.
      CREATE INDEX memory_operations_binding ON {schema}.memory_operations (company_id, binding_id, position) WHERE binding_id IS NOT NULL;
      CREATE INDEX memory_operations_project ON {schema}.memory_operations (company_id, project_id, position) WHERE project_id IS NOT NULL;
      CREATE INDEX memory_operations_source_kind ON {schema}.memory_operations (company_id, source_kind, position) WHERE source_kind IS NOT NULL;
      CREATE INDEX memory_operations_operation ON {schema}.memory_operations (company_id, operation, position);
      CREATE INDEX memory_operations_status ON {schema}.memory_operations (company_id, status, position);
    `,
  },
  {
    version: 7,
    name: 'an index on the operation log for the actor filter',
    sql: `
      -- Who called (actor_kind, actor_id) is on every entry since the first schema, refused calls
      -- included, so nothing is backfilled: the index makes "what did agent X do?" one backward
      -- index scan, whatever the scope of each call named. Not partial: every entry has an actor.
      CREATE INDEX memory_operations_actor ON {schema}.memory_operations (company_id, actor_id, position);
    `,
  },
  {
    version: 8,
    name: 'the bearer tokens of the host',
    sql: `
      -- One row per token, kept as the SHA-256 of the token, never the token. Looked up by hash
      -- on every request, so the hash is unique (and indexed); a revocation is one column set once.
      CREATE TABLE {schema}.memory_tokens (
        id text COLLATE "C" PRIMARY KEY,
        hash text COLLATE "C" NOT NULL UNIQUE,
        role text NOT NULL CHECK (role IN ('operator', 'admin', 'agent')),
        grant_json json NOT NULL,
        label text,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz
      );
    `,
  },
];

/** Quotes an identifier for SQL. The store only accepts schema names that need no escaping, but quoting keeps case. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Applies every migration newer than the schema's version, each in its own transaction, and
 * records it in `<schema>.memplane_schema_migrations`. A transaction-scoped advisory lock per
 * schema serialises concurrent starts (several workers migrating at once apply each step once).
 * Returns how many migrations were applied. Safe to call on every start.
 */
export async function applyPostgresMigrations(
  transaction: <Result>(work: (client: Queryable) => Promise<Result>) => Promise<Result>,
  schema: string,
  migrations: readonly PostgresMigration[] = postgresMigrations,
): Promise<number> {
  const quoted = quoteIdentifier(schema);
  const ordered = [...migrations].sort((left, right) => left.version - right.version);
  let applied = 0;
  for (const migration of ordered) {
    const ran = await transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`memplane-service-migrations:${schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${quoted}.memplane_schema_migrations (
           version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${quoted}.memplane_schema_migrations`);
      if ((rows[0]?.version ?? 0) >= migration.version) return false;
      await client.query(migration.sql.replaceAll('{schema}', quoted));
      await client.query(`INSERT INTO ${quoted}.memplane_schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      return true;
    });
    if (ran) applied += 1;
  }
  return applied;
}
