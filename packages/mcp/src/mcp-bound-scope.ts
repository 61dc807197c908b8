import { identifierSchema, MemoryValidationError, parseInput } from '@memplane/core';
import { z } from 'zod';

/**
 * The scope an MCP session is bound to, set by the host (flags, environment or a bearer token),
 * never by the model. Every tool call acts as this agent of this company; the project and issue
 * are where it works (notes record them, reads may narrow to them), the run is its heartbeat run.
 */
export interface McpBoundScope {
  /** The company. Every call is in this company. */
  companyId: string;
  /** The agent the calls act as. */
  agentId: string;
  /** The project the agent works in. */
  projectId?: string;
  /** The issue the agent works on. */
  issueId?: string;
  /** The heartbeat run the calls belong to; logged on every operation. */
  runId?: string;
}

/** The zod schema of {@link McpBoundScope}: identifiers only, no other field. */
export const mcpBoundScopeSchema = z.strictObject({
  companyId: identifierSchema,
  agentId: identifierSchema,
  projectId: identifierSchema.optional(),
  issueId: identifierSchema.optional(),
  runId: identifierSchema.optional(),
});

/** The scope fields, in the order flags and variables are read. */
export const boundScopeFields = ['companyId', 'agentId', 'projectId', 'issueId', 'runId'] as const;

/** One scope field as the command line and the environment name it. */
interface ScopeFieldSources {
  flag: string;
  variables: readonly string[];
}

/**
 * Where each field may come from. `MEMPLANE_*` are ours; `PAPERCLIP_*` are the variables
 * Paperclip sets in every agent run (its issue is the run's task, `PAPERCLIP_TASK_ID`).
 */
export const scopeFieldSources: Record<(typeof boundScopeFields)[number], ScopeFieldSources> = {
  companyId: { flag: '--company', variables: ['MEMPLANE_COMPANY_ID', 'PAPERCLIP_COMPANY_ID'] },
  agentId: { flag: '--agent', variables: ['MEMPLANE_AGENT_ID', 'PAPERCLIP_AGENT_ID'] },
  projectId: { flag: '--project', variables: ['MEMPLANE_PROJECT_ID', 'PAPERCLIP_PROJECT_ID'] },
  issueId: { flag: '--issue', variables: ['MEMPLANE_ISSUE_ID', 'PAPERCLIP_TASK_ID'] },
  runId: { flag: '--run', variables: ['MEMPLANE_RUN_ID', 'PAPERCLIP_RUN_ID'] },
};

/**
 * The bound scope of a stdio server, from its flags and environment. Every source that sets a
 * field must agree: a flag and a variable (or our variable and Paperclip's) naming two
 * companies is refused rather than one picked, so a stale variable can never widen or switch
 * the scope. Empty values count as unset. Throws `MemoryValidationError` naming the field.
 */
export function resolveBoundScope(
  flags: Partial<Record<(typeof boundScopeFields)[number], string | undefined>>,
  environment: Readonly<Record<string, string | undefined>>,
): McpBoundScope {
  const scope: Record<string, string> = {};
  for (const field of boundScopeFields) {
    const { flag, variables } = scopeFieldSources[field];
    const given = [
      { name: flag, value: flags[field] },
      ...variables.map((name) => ({ name, value: environment[name] })),
    ].filter((source): source is { name: string; value: string } => source.value !== undefined && source.value !== '');
    const [first] = given;
    if (first === undefined) continue;
    const disagreeing = given.find((source) => source.value !== first.value);
    if (disagreeing !== undefined) {
      throw new MemoryValidationError({
        target: 'bound scope',
        issues: [{ path: field, message: `${first.name} and ${disagreeing.name} name different values; set one, or make them agree` }],
      });
    }
    scope[field] = first.value;
  }
  for (const field of ['companyId', 'agentId'] as const) {
    if (scope[field] === undefined) {
      const { flag, variables } = scopeFieldSources[field];
      throw new MemoryValidationError({
        target: 'bound scope',
        issues: [{ path: field, message: `is required: pass ${flag} or set ${variables.join(' or ')}` }],
      });
    }
  }
  return parseInput(mcpBoundScopeSchema, scope, 'bound scope') as McpBoundScope;
}
