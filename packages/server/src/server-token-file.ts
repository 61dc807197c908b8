import { identifierSchema, parseInput } from '@memplane/core';
import { openHashedTokenFile, type HashedTokenFile, type HashedTokenIssueOptions, type HashedTokenRecord } from '@memplane/host';
import { z } from 'zod';

/**
 * What a server token acts as:
 * - `operator`: an operator of the platform, for every company (`companyIds` absent) or the listed ones;
 * - `admin`: the admin of one company (actor kind `company`, role `admin`);
 * - `agent`: one agent of one company.
 */
export type ServerTokenGrant =
  | {
      /** An operator. */
      role: 'operator';
      /** The operator, for the audit trail. */
      operatorId: string;
      /** The companies it reaches; absent, every company. */
      companyIds?: string[];
      /**
       * Whether a call may name an agent of a reached company in `Memplane-Agent-Id` and run as
       * that agent (for a relay serving many agents, such as the Paperclip plugin). Default false.
       */
      actAsAgents?: true;
      /** Requests per minute this token may make; absent, the server's default. */
      requestsPerMinute?: number;
    }
  | {
      /** A company admin. */
      role: 'admin';
      /** The company. */
      companyId: string;
      /** The person or key acting, for the audit trail. Default: the token id. */
      userId?: string;
      /** Requests per minute this token may make; absent, the server's default. */
      requestsPerMinute?: number;
    }
  | {
      /** An agent. */
      role: 'agent';
      /** The agent's company. */
      companyId: string;
      /** The agent. */
      agentId: string;
      /** Requests per minute this token may make; absent, the server's default. */
      requestsPerMinute?: number;
    };

/** One issued server token as the token file keeps it (its SHA-256, never the token). */
export type ServerTokenRecord = HashedTokenRecord<ServerTokenGrant>;

const requestsPerMinute = z.number().int().min(1).max(1_000_000).optional();

/** The grant, checked as a whole before a token is issued and again before a token is honoured. */
export const serverTokenGrantSchema = z.discriminatedUnion('role', [
  z.strictObject({
    role: z.literal('operator'),
    operatorId: identifierSchema,
    companyIds: z.array(identifierSchema).min(1).max(10_000).optional(),
    actAsAgents: z.literal(true).optional(),
    requestsPerMinute,
  }),
  z.strictObject({ role: z.literal('admin'), companyId: identifierSchema, userId: identifierSchema.optional(), requestsPerMinute }),
  z.strictObject({ role: z.literal('agent'), companyId: identifierSchema, agentId: identifierSchema, requestsPerMinute }),
]);

// The file stores grants flat, one record per token; the union above is what makes a record whole.
const flatGrant = z.strictObject({
  role: z.enum(['operator', 'admin', 'agent']),
  operatorId: identifierSchema.optional(),
  companyIds: z.array(identifierSchema).max(10_000).optional(),
  companyId: identifierSchema.optional(),
  userId: identifierSchema.optional(),
  agentId: identifierSchema.optional(),
  actAsAgents: z.literal(true).optional(),
  requestsPerMinute,
});

/** The default token file name inside the data folder. */
export const serverTokenFileName = 'server-tokens.json';

/** The prefix of server tokens, so one is told from an MCP token (`mpt_`) at a glance. */
export const serverTokenPrefix = 'mps_';

/** The bearer tokens of `memplane serve`, kept hashed in one JSON file (mode 0600). */
export interface ServerTokenFile {
  /** Issues a token; it is returned once, here, and never stored. */
  issue(grant: ServerTokenGrant, options?: HashedTokenIssueOptions): Promise<{ token: string; record: ServerTokenRecord }>;
  /** Revokes a token by id; false when there is none. */
  revoke(tokenId: string): Promise<boolean>;
  /** Every issued token, revoked ones included. */
  list(): Promise<ServerTokenRecord[]>;
  /** The record of a live token, or undefined (unknown, revoked, expired, or a record that is not a whole grant). */
  verify(token: string): Promise<ServerTokenRecord | undefined>;
}

/** Opens the server token file at `path` (created on the first issue). */
export function openServerTokenFile(path: string, options: { now?: () => Date } = {}): ServerTokenFile {
  const file: HashedTokenFile<z.output<typeof flatGrant>> = openHashedTokenFile(path, {
    grant: flatGrant,
    tokenPrefix: serverTokenPrefix,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const whole = (record: HashedTokenRecord<z.output<typeof flatGrant>>): ServerTokenRecord | undefined => {
    const { id, hash, label, createdAt, expiresAt, revokedAt, ...grant } = record;
    const parsed = serverTokenGrantSchema.safeParse(grant);
    // A record edited by hand into something that is no whole grant is refused, never guessed at.
    if (!parsed.success) return undefined;
    return { ...parsed.data, id, hash, createdAt, ...(label === undefined ? {} : { label }), ...(expiresAt === undefined ? {} : { expiresAt }), ...(revokedAt === undefined ? {} : { revokedAt }) };
  };
  return {
    async issue(grant, issueOptions) {
      const valid = parseInput(serverTokenGrantSchema, grant, 'token grant') as ServerTokenGrant;
      const { token, record } = await file.issue(valid, issueOptions);
      return { token, record: whole(record) as ServerTokenRecord };
    },
    revoke: (tokenId) => file.revoke(tokenId),
    async list() {
      return (await file.list()).map(whole).filter((record): record is ServerTokenRecord => record !== undefined);
    },
    async verify(token) {
      const record = await file.verify(token);
      return record === undefined ? undefined : whole(record);
    },
  };
}
