import type { MemoryCallContext, MemoryService } from '@memplane/service';
import { z } from 'zod';
import type { MemplaneTokenRecord } from '@memplane/host';

/** The surfaces of the API, kept in separate route modules as the plan keeps them apart. */
export type ServerRouteTag = 'session' | 'runtime' | 'control' | 'explorer';

/** What a route handler gets: the service, the caller's context for the path's company, and the checked request parts. */
export interface ServerCall {
  /** The memory service. */
  service: MemoryService;
  /** The call context: the token's actor, the path's company, run and cost headers. */
  context: MemoryCallContext;
  /** The token's record. */
  token: MemplaneTokenRecord;
  /** Path parameters. */
  params: Record<string, string>;
  /** Query parameters, typed by the route's query schema (numbers, arrays); the service checks them. */
  query: Record<string, unknown>;
  /** The JSON body, or undefined when none was sent; the service checks it. */
  body: unknown;
  /** The companies the server knows of (from its issued tokens), for an operator of every company. */
  knownCompanies(): Promise<string[]>;
}

/** What a handler returns: a JSON body, with a status other than 200 when it says so. */
export type ServerReply = { status?: 200 | 201; body: unknown };

/** One endpoint: how it is routed, documented and handled. */
export interface ServerRoute {
  /** The HTTP method. */
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path in Hono's form (`/v1/companies/:companyId/memory/query`). */
  path: string;
  /** The surface, also the OpenAPI tag. */
  tag: ServerRouteTag;
  /** A stable id for clients (`memory.query`). */
  operationId: string;
  /** One line for the document. */
  summary: string;
  /** Path parameters besides `companyId`, for the document. */
  params?: z.ZodObject;
  /** The query parameters: the service's own request schema. */
  query?: z.ZodObject;
  /** The request body: the service's own request schema. */
  body?: z.ZodType;
  /** Whether a body must be sent. Default: true when `body` is set. */
  bodyRequired?: boolean;
  /**
   * What the call does in a company the service does not know yet (`isKnownCompany` of
   * `@memplane/host`: no binding, no binding history):
   * - `provisions`: a runtime write (capture, records, a hook). For a token whose grant reaches
   *   the company, the server's `prepareCompany` runs first (the zero-config default binding).
   * - `any`: the call needs no company data (the provider list) or starts the company itself
   *   (creating a binding); it runs as in any company.
   * - absent: the company must be known. For a token whose grant reaches it, an unknown company
   *   answers 404 `MEMORY_NOT_FOUND` and the service is not called, so nothing is written.
   */
  company?: 'provisions' | 'any';
  /** The success status and what it returns, for the document. */
  success: { status: 200 | 201; description: string; schema?: z.ZodType };
  /** Runs the call. */
  handle(call: ServerCall): Promise<ServerReply>;
}

/** A page as every cursor-paginated endpoint returns it. */
export const pageSchema = z.object({ items: z.array(z.unknown()), nextCursor: z.string().optional() });

/** The OpenAPI form of a Hono path (`:companyId` → `{companyId}`). */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Replies 200 with `body`. */
export const ok = (body: unknown): ServerReply => ({ body });
