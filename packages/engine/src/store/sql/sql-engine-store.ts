import { MemoryConfigurationError } from '@memplane/core';
import type { EngineStore, EngineStoreOpenSpec, EngineStoreSession } from '../engine-store';
import type { ServiceMetaRow } from '../engine-store-rows';
import type { VectorIndex } from '../vector-index';
import type { SqlConnection, SqlDatabase } from './sql-connection';
import { sqliteDialect } from './sql-dialect';
import { sqlItemMethods } from './sql-item-methods';
import { sqlLayerMethods } from './sql-layer-methods';
import { provisionSqlStore, type SqlProvisioning } from './sql-provision';
import { sqlResourceMethods } from './sql-resource-methods';
import { sqlServiceMethods } from './sql-service-methods';
import type { SqlLexicalIndex } from './sql-lexical-index';
import type { SqlStoreContext } from './sql-store-context';

/** What a SQL backend gives the shared store. */
export interface SqlBackend {
  readonly name: string;
  readonly database: SqlDatabase;
  readonly provisioning: SqlProvisioning;
  /** Builds the context once the service meta (scope and boundary fields) is known. */
  context(meta: ServiceMetaRow): SqlStoreContext;
  /** Provisions the backend's vector index for the scope fields, inside the `open` transaction, when it has one. */
  openVectorIndex?(connection: SqlConnection, fields: readonly string[], ddlMode: EngineStoreOpenSpec['ddlMode']): Promise<VectorIndex>;
  /** The name of that vector index, known before `open` (the engine reads the index when it is created). */
  readonly vectorIndexName?: string | undefined;
  /** Serialises the first `open` of concurrent processes (a Postgres advisory lock); nothing on SQLite. */
  lockForDdl?(connection: SqlConnection): Promise<void>;
}

/** The session of one transaction: every method of the contract on one connection. */
export function createSqlSession(connection: SqlConnection, context: SqlStoreContext): EngineStoreSession {
  return {
    ...sqlResourceMethods(connection, context),
    ...sqlItemMethods(connection, context),
    ...sqlLayerMethods(connection, context),
    ...sqlServiceMethods(connection, context),
  };
}

const unusedConnection: SqlConnection = {
  dialect: 'sqlite',
  all: () => Promise.reject(new MemoryConfigurationError({ message: 'unused' })),
  run: () => Promise.reject(new MemoryConfigurationError({ message: 'unused' })),
};

const unused = () => Promise.reject(new MemoryConfigurationError({ message: 'unused' }));
const unusedLexicalIndex: SqlLexicalIndex = { provision: unused, insert: unused, reindex: unused, remove: unused, source: () => ({ score: unused, windowMembers: unused, itemsOf: unused }) };

/** The names of the session methods, read from a session that is never used. */
const sessionMethodNames = Object.keys(
  createSqlSession(unusedConnection, { dialect: sqliteDialect, fields: [], boundaryFields: [], lexical: unusedLexicalIndex, isUniqueViolation: () => false }),
) as Array<keyof EngineStoreSession>;

/**
 * An `EngineStore` over a SQL backend: `open` provisions or validates the tables and the vector
 * index in one transaction, every `transaction` runs on one connection, all or nothing, and each
 * session method called on the store itself runs in a transaction of its own.
 */
export function createSqlEngineStore(backend: SqlBackend): EngineStore {
  let context: SqlStoreContext | undefined;
  let opened: VectorIndex | undefined;
  const openedIndex = (): VectorIndex => {
    if (opened === undefined) throw new MemoryConfigurationError({ message: `The ${backend.name} engine store is not open; its vector index is provisioned by open().` });
    return opened;
  };
  // Handed out before open (the engine takes the store's index when it is created), bound to the
  // index that open provisions for the scope fields.
  const vectorIndex: VectorIndex | undefined =
    backend.openVectorIndex === undefined
      ? undefined
      : {
          name: backend.vectorIndexName ?? 'vectors',
          upsert: async (entries) => openedIndex().upsert(entries),
          remove: async (scope, itemIds) => openedIndex().remove(scope, itemIds),
          search: async (request) => openedIndex().search(request),
          get: async (scope, itemIds, model) => openedIndex().get(scope, itemIds, model),
        };
  let closed = false;

  const requireOpen = (what: string): SqlStoreContext => {
    if (closed) throw new MemoryConfigurationError({ message: `The ${backend.name} engine store is closed; it cannot ${what}.` });
    if (context === undefined) throw new MemoryConfigurationError({ message: `The ${backend.name} engine store is not open; call open() before it can ${what}.` });
    return context;
  };

  const transaction = async <T>(work: (tx: EngineStoreSession) => Promise<T>): Promise<T> => {
    const ready = requireOpen('run a transaction');
    return backend.database.transaction((connection) => work(createSqlSession(connection, ready)));
  };
  const standalone = Object.fromEntries(
    sessionMethodNames.map((name) => [name, (...args: unknown[]) => transaction((tx) => (tx[name] as (...input: unknown[]) => Promise<unknown>)(...args))]),
  ) as unknown as EngineStoreSession;

  return {
    ...standalone,
    name: backend.name,
    get vectorIndex() {
      return vectorIndex;
    },
    async open(spec) {
      if (closed) throw new MemoryConfigurationError({ message: `The ${backend.name} engine store is closed; it cannot open again.` });
      return backend.database.transaction(async (connection) => {
        await backend.lockForDdl?.(connection);
        const meta = await provisionSqlStore(connection, backend.provisioning, spec);
        const ready = backend.context(meta);
        await ready.lexical.provision(connection, ready, spec.ddlMode);
        context = ready;
        if (backend.openVectorIndex !== undefined) opened = await backend.openVectorIndex(connection, meta.scopeFields, spec.ddlMode);
        return meta;
      });
    },
    transaction,
    async close() {
      if (closed) return;
      closed = true;
      await backend.database.close();
    },
  };
}
