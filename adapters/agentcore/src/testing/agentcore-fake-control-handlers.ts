import { http, type HttpHandler } from 'msw';
import { errorResponse, jsonResponse, readBody, validationError } from './agentcore-fake-responses';
import type { AgentCoreFakeStore } from './agentcore-fake-store';
import { metadataTextPattern } from './agentcore-fake-validation';

/**
 * msw handlers of the two control-plane calls the memory setup makes, `GetMemory` and
 * `UpdateMemory` (test-only), over the same fake memory as the data plane. Paths, methods and
 * success codes are the HTTP bindings of `@aws-sdk/client-bedrock-agentcore-control`
 * (dist-cjs/index.js: `GET /memories/{memoryId}/details` 200, `PUT /memories/{memoryId}/update`
 * 202); error status codes are that SDK's error shapes (ValidationException 400 with `reason`
 * and `fieldList`, ServiceQuotaExceededException 402, ResourceNotFoundException 404,
 * ConflictException 409).
 */

/** The endpoint of the control plane in a region. */
export function agentCoreControlEndpoint(region: string): string {
  return `https://bedrock-agentcore-control.${region}.amazonaws.com`;
}

/**
 * At most 10 indexed keys per memory. Source: long-term-memory-metadata.html, "You can declare
 * up to 10 indexed keys per memory ... Once an indexed key is added, it cannot be removed".
 */
export const maximumIndexedKeys = 10;

/** API_IndexedKey.html: `type` is STRING, STRINGLIST or NUMBER. */
const indexedKeyTypes = new Set(['STRING', 'STRINGLIST', 'NUMBER']);

function memoryOf(store: AgentCoreFakeStore): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    arn: `arn:aws:bedrock-agentcore:us-east-1:123456789012:memory/${store.memoryId}`,
    id: store.memoryId,
    name: store.memoryId.replace(/-[A-Za-z0-9]{10}$/, ''),
    eventExpiryDuration: 90,
    status: store.memoryStatus,
    createdAt: now,
    updatedAt: now,
    strategies: [],
    indexedKeys: [...store.indexedKeys].map(([key, type]) => ({ key, type })),
  };
}

function refuseUnsigned(request: Request): Response | undefined {
  const authorization = request.headers.get('authorization') ?? '';
  return authorization.startsWith('AWS4-HMAC-SHA256 ') && authorization.includes('/bedrock-agentcore/aws4_request')
    ? undefined
    : errorResponse(403, 'AccessDeniedException', 'Missing or invalid SigV4 signature.');
}

/** `GetMemory` and `UpdateMemory` (only `addIndexedKeys` is emulated). */
export function createAgentCoreFakeControlHandlers(store: AgentCoreFakeStore, settings: { region: string }): HttpHandler[] {
  const base = agentCoreControlEndpoint(settings.region);
  return [
    http.get(`${base}/memories/:memoryId/details`, ({ request, params }) => {
      const refused = refuseUnsigned(request);
      if (refused !== undefined) return refused;
      if (params.memoryId !== store.memoryId) return errorResponse(404, 'ResourceNotFoundException', `Memory ${String(params.memoryId)} not found.`);
      return jsonResponse({ memory: memoryOf(store) });
    }),
    http.put(`${base}/memories/:memoryId/update`, async ({ request, params }) => {
      const refused = refuseUnsigned(request);
      if (refused !== undefined) return refused;
      if (params.memoryId !== store.memoryId) return errorResponse(404, 'ResourceNotFoundException', `Memory ${String(params.memoryId)} not found.`);
      // A memory that is still being created or updated cannot change (ConflictException, 409).
      if (store.memoryStatus !== 'ACTIVE') return errorResponse(409, 'ConflictException', `Memory ${store.memoryId} is ${store.memoryStatus}.`);
      const body = (await readBody(request)) ?? {};
      const added = (body.addIndexedKeys ?? []) as Array<{ key?: unknown; type?: unknown }>;
      if (!Array.isArray(added)) return validationError('addIndexedKeys must be a list.');
      for (const { key, type } of added) {
        // API_IndexedKey.html: key 1 to 128 characters of [a-zA-Z0-9\s._:/=+@-].
        if (typeof key !== 'string' || key.length < 1 || key.length > 128 || !metadataTextPattern.test(key)) {
          return validationError(`Indexed key ${JSON.stringify(key)} does not satisfy the constraints.`);
        }
        if (!indexedKeyTypes.has(String(type))) return validationError(`Indexed key type ${String(type)} is not one of STRING, STRINGLIST, NUMBER.`);
        // UpdateMemoryInput.addIndexedKeys: "Previously indexed keys cannot be removed", nor redeclared.
        if (store.indexedKeys.has(key)) return validationError(`Indexed key ${key} is already declared on memory ${store.memoryId}.`);
      }
      if (store.indexedKeys.size + added.length > maximumIndexedKeys) {
        return validationError(`A memory holds at most ${maximumIndexedKeys} indexed keys; ${store.indexedKeys.size} are declared and ${added.length} were added.`);
      }
      for (const { key, type } of added) store.indexedKeys.set(String(key), String(type));
      return jsonResponse({ memory: memoryOf(store) }, 202);
    }),
  ];
}
