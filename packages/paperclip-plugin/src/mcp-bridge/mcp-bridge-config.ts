import { identifierSchema } from '@memplane/core';
import { z } from 'zod';

/** An environment variable name, as POSIX shells and every client here accept it. */
export const environmentVariableNameSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name (letters, digits, underscore)');

/** One string the bridge writes into a client's file: a command word, an argument or a path. */
const bridgeWordSchema = z.string().min(1).max(4096);

/**
 * Where the MCP server the bridge starts keeps its memory. `dataDirectory`: a data folder on the
 * agents' machine (SQLite and markdown under it). `postgres`: the Postgres of the service, whose
 * connection string the agent's environment carries in `urlVariable`; the bridge writes the
 * variable's name, never its value.
 */
export const mcpBridgeTargetSchema = z.union([
  z.strictObject({ dataDirectory: bridgeWordSchema }),
  z.strictObject({
    postgres: z.strictObject({
      /** The variable holding the connection string in the agent's environment. Default `MEMPLANE_POSTGRES_URL`. */
      urlVariable: environmentVariableNameSchema.default('MEMPLANE_POSTGRES_URL'),
      /** The schema of the service's tables. Default: the MCP server's (`memplane`). */
      schema: identifierSchema.optional(),
    }),
  }),
]);

/**
 * The MCP bridge settings of a company's config (`mcpBridge`). With the service in the worker
 * the bridge points at the worker's own storage unless `target` says otherwise; with the service
 * at a `memplane serve` (http mode) `target` is required, since a stdio MCP server cannot reach
 * that server.
 */
export const mcpBridgeConfigSchema = z.strictObject({
  /** The command that starts the MCP server, as words. Default `npx -y @memplane/mcp@<plugin version>`. */
  command: z.array(bridgeWordSchema).min(1).max(32).optional(),
  /** Where the MCP server keeps its memory (see {@link mcpBridgeTargetSchema}). */
  target: mcpBridgeTargetSchema.optional(),
});

/** A parsed `mcpBridge` config. */
export type McpBridgeConfig = z.output<typeof mcpBridgeConfigSchema>;

/** A parsed bridge target. */
export type McpBridgeTarget = z.output<typeof mcpBridgeTargetSchema>;
