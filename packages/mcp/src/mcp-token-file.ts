import { identifierSchema } from '@memplane/core';
import { openHashedTokenFile, type HashedTokenRecord } from '@memplane/host';
import { z } from 'zod';
import type { McpBoundScope } from './mcp-bound-scope';

/** What an MCP token acts as: one agent of one company, maybe bound to a project. */
interface McpTokenScope {
  /** The company the token acts in. */
  companyId: string;
  /** The agent the token acts as. */
  agentId: string;
  /** The project it is bound to, if any. */
  projectId?: string;
}

/**
 * One issued bearer token, as the token file keeps it: its SHA-256, never the token, with the
 * company, agent and project it acts as, its label, and when it was issued, expires or was revoked.
 */
export type McpTokenRecord = HashedTokenRecord<McpTokenScope>;

const scopeSchema = z.strictObject({
  companyId: identifierSchema,
  agentId: identifierSchema,
  projectId: identifierSchema.optional(),
});

/** What {@link McpTokenFile.issue} needs: who the token acts as. */
export interface McpTokenGrant {
  /** The company the token acts in. */
  companyId: string;
  /** The agent the token acts as. */
  agentId: string;
  /** The project it is bound to: notes record it, and reads may narrow only to it. */
  projectId?: string;
  /** A note for people: who or what holds the token. */
  label?: string;
  /** When it stops working. Default: never (revoke it instead). */
  expiresAt?: Date;
}

/** The bearer tokens of the HTTP transport, kept hashed in one JSON file (mode 0600). */
export interface McpTokenFile {
  /** Issues a token. The token itself is returned once, here, and never stored. */
  issue(grant: McpTokenGrant): Promise<{ token: string; record: McpTokenRecord }>;
  /** Revokes a token by id; false when there is no such token. */
  revoke(tokenId: string): Promise<boolean>;
  /** Every issued token, revoked ones included. */
  list(): Promise<McpTokenRecord[]>;
  /** The scope a token is bound to, or undefined for an unknown, revoked or expired token. Sees changes to the file at once. */
  verify(token: string): Promise<(McpBoundScope & { tokenId: string }) | undefined>;
}

/** The default token file name inside the data folder. */
export const tokenFileName = 'mcp-tokens.json';

/** Opens (or, on the first issue, creates) the token file at `path`; the file format is the service's hashed token file. */
export function openMcpTokenFile(path: string, options: { now?: () => Date } = {}): McpTokenFile {
  const file = openHashedTokenFile(path, { grant: scopeSchema, tokenPrefix: 'mpt_', ...(options.now === undefined ? {} : { now: options.now }) });
  return {
    async issue(grant) {
      const { label, expiresAt, ...scope } = grant;
      return file.issue(scope, { ...(label === undefined ? {} : { label }), ...(expiresAt === undefined ? {} : { expiresAt }) });
    },
    revoke: (tokenId) => file.revoke(tokenId),
    list: () => file.list(),
    async verify(token) {
      const record = await file.verify(token);
      if (record === undefined) return undefined;
      return {
        tokenId: record.id,
        companyId: record.companyId,
        agentId: record.agentId,
        ...(record.projectId === undefined ? {} : { projectId: record.projectId }),
      };
    },
  };
}
