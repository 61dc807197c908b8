import { identifierSchema } from '@memplane/core';
import { z } from 'zod';

/** What an operator's token acts as: an operator of the platform, for every company or the listed ones. */
export interface OperatorTokenGrant {
  /** An operator. */
  role: 'operator';
  /** The operator, for the audit trail. */
  operatorId: string;
  /** The companies it reaches; absent, every company. */
  companyIds?: string[];
  /**
   * Whether a call may name an agent of a reached company and run as that agent (for a relay
   * serving many agents, such as the Paperclip plugin). Default false.
   */
  actAsAgents?: true;
  /** Requests per minute this token may make; absent, the host's default. */
  requestsPerMinute?: number;
}

/** What a company admin's token acts as: the admin of one company. */
export interface AdminTokenGrant {
  /** A company admin. */
  role: 'admin';
  /** The company. */
  companyId: string;
  /** The person or key acting, for the audit trail. Default: the token id. */
  userId?: string;
  /** Requests per minute this token may make; absent, the host's default. */
  requestsPerMinute?: number;
}

/** What an agent's token acts as: one agent of one company, maybe bound to a project. */
export interface AgentTokenGrant {
  /** An agent. */
  role: 'agent';
  /** The agent's company. */
  companyId: string;
  /** The agent. */
  agentId: string;
  /** The project it is bound to: notes record it, and reads may narrow only to it. */
  projectId?: string;
  /** Requests per minute this token may make; absent, the host's default. */
  requestsPerMinute?: number;
}

/**
 * What a token acts as: the union of the grants of `memplane serve` (operator, company admin,
 * agent) and of `memplane-mcp` (an agent bound to a project).
 */
export type MemplaneTokenGrant = OperatorTokenGrant | AdminTokenGrant | AgentTokenGrant;

/** The roles a token may have. */
export type MemplaneTokenRole = MemplaneTokenGrant['role'];

const requestsPerMinute = z.number().int().min(1).max(1_000_000).optional();

/**
 * The fields of each role beside `role` itself, strict: the store keeps them as the row's JSON
 * `grant`, and a row is honoured only when its JSON is exactly one of these.
 */
export const tokenGrantFieldSchemas = {
  operator: z.strictObject({
    operatorId: identifierSchema,
    companyIds: z.array(identifierSchema).min(1).max(10_000).optional(),
    actAsAgents: z.literal(true).optional(),
    requestsPerMinute,
  }),
  admin: z.strictObject({ companyId: identifierSchema, userId: identifierSchema.optional(), requestsPerMinute }),
  agent: z.strictObject({ companyId: identifierSchema, agentId: identifierSchema, projectId: identifierSchema.optional(), requestsPerMinute }),
} as const;

/** A whole grant, checked before a token is issued and again, from its row, before it is honoured. */
export const tokenGrantSchema = z.discriminatedUnion('role', [
  tokenGrantFieldSchemas.operator.extend({ role: z.literal('operator') }),
  tokenGrantFieldSchemas.admin.extend({ role: z.literal('admin') }),
  tokenGrantFieldSchemas.agent.extend({ role: z.literal('agent') }),
]);

/** The companies a grant reaches, or `'*'` for an operator of every company. */
export function companiesOf(grant: MemplaneTokenGrant): string[] | '*' {
  if (grant.role === 'operator') return grant.companyIds ?? '*';
  return [grant.companyId];
}
