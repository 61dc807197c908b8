import { randomUUID } from 'node:crypto';
import type { AgentCoreFakeStore } from './agentcore-fake-store';

/** Responses and request checks of the fake AgentCore data plane (test-only). */

/** The endpoint of the data plane in a region. */
export function agentCoreEndpoint(region: string): string {
  return `https://bedrock-agentcore.${region}.amazonaws.com`;
}

/** An AgentCore error response: status, `x-amzn-errortype` and a JSON body with `message`. */
export function errorResponse(status: number, errorType: string, message: string, extra: Record<string, unknown> = {}): Response {
  return new Response(JSON.stringify({ message, ...extra }), {
    status,
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': errorType, 'x-amzn-requestid': randomUUID() },
  });
}

/** A successful AgentCore response. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() } });
}

/** A 400 `ValidationException`, as AgentCore answers a request that breaks a constraint. */
export function validationError(message: string): Response {
  return errorResponse(400, 'ValidationException', message, { reason: 'fieldValidationFailed' });
}

/** The checks every request passes first: a SigV4 signature and the memory the fake serves. */
export function refuseUnauthenticated(store: AgentCoreFakeStore, request: Request, memoryId: unknown): Response | undefined {
  const authorization = request.headers.get('authorization') ?? '';
  if (!authorization.startsWith('AWS4-HMAC-SHA256 ') || !authorization.includes('/bedrock-agentcore/aws4_request')) {
    return errorResponse(403, 'AccessDeniedException', 'Missing or invalid SigV4 signature.');
  }
  if (memoryId !== store.memoryId) return errorResponse(404, 'ResourceNotFoundException', `Memory ${String(memoryId)} not found.`);
  return undefined;
}

/** Reads a JSON request body; undefined when it is not JSON. */
export async function readBody(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body = (await request.json()) as unknown;
    return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
