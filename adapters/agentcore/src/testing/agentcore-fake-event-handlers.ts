import { http, type HttpHandler } from 'msw';
import { errorResponse, jsonResponse, readBody, refuseUnauthenticated, validationError } from './agentcore-fake-responses';
import type { AgentCoreFakeStore, FakeEvent } from './agentcore-fake-store';
import { checkActorId, checkMetadata, checkPayload, checkSessionId } from './agentcore-fake-validation';

/**
 * msw handlers of the AgentCore event and extraction-job API over a fake store (test-only):
 * CreateEvent, GetEvent, DeleteEvent, ListMemoryExtractionJobs, StartMemoryExtractionJob.
 */
export function eventAndJobHandlers(store: AgentCoreFakeStore, base: string): HttpHandler[] {
  const eventPath = `${base}/memories/:memoryId/actor/:actorId/sessions/:sessionId/events/:eventId`;
  return [
    // CreateEvent: POST /memories/{memoryId}/events answers 201 (the SDK's HTTP bindings,
    // dist-cjs/index.js); actorId, eventTimestamp and payload required, sessionId optional
    // (CreateEventInput in dist-types/models/models_0.d.ts; API_CreateEvent.html); a repeated
    // clientToken returns the first answer (API_CreateEvent.html, `clientToken`).
    http.post(`${base}/memories/:memoryId/events`, async ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const body = (await readBody(request)) ?? {};
      const replayed = store.replay('createEvent', body.clientToken);
      if (replayed !== undefined) return jsonResponse(replayed, 201);
      const problem =
        checkActorId(body.actorId) ??
        (body.sessionId === undefined ? undefined : checkSessionId(body.sessionId)) ??
        (typeof body.eventTimestamp === 'number' ? undefined : 'eventTimestamp is required') ??
        checkPayload(body.payload) ??
        checkMetadata(body.metadata, 'event');
      if (problem !== undefined) return validationError(problem);
      const event = store.createEvent({
        actorId: String(body.actorId),
        ...(body.sessionId === undefined ? {} : { sessionId: String(body.sessionId) }),
        eventTimestamp: body.eventTimestamp as number,
        payload: body.payload as FakeEvent['payload'],
        ...(body.metadata === undefined ? {} : { metadata: body.metadata as FakeEvent['metadata'] }),
      });
      const response = { event };
      store.remember('createEvent', body.clientToken, response);
      return jsonResponse(response, 201);
    }),
    // GetEvent and DeleteEvent: the actor/session/event path and 200 of the SDK's HTTP bindings;
    // an unknown event is 404 ResourceNotFoundException (API_GetEvent.html, API_DeleteEvent.html, Errors).
    http.get(eventPath, ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const event = store.findEvent(String(params.actorId), String(params.sessionId), String(params.eventId));
      return event === undefined ? errorResponse(404, 'ResourceNotFoundException', 'Event not found.') : jsonResponse({ event });
    }),
    http.delete(eventPath, ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const eventId = String(params.eventId);
      return store.deleteEvent(String(params.actorId), String(params.sessionId), eventId)
        ? jsonResponse({ eventId })
        : errorResponse(404, 'ResourceNotFoundException', 'Event not found.');
    }),
    // StartMemoryExtractionJob: POST .../extractionJobs/start, 200 with the job id; an unknown
    // job is 404 ResourceNotFoundException (API_StartMemoryExtractionJob.html).
    http.post(`${base}/memories/:memoryId/extractionJobs/start`, async ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const body = (await readBody(request)) ?? {};
      const jobId = (body.extractionJob as { jobId?: unknown } | undefined)?.jobId;
      const replayed = store.replay('startJob', body.clientToken);
      if (replayed !== undefined) return jsonResponse(replayed);
      if (typeof jobId !== 'string' || !store.restartJob(jobId)) return errorResponse(404, 'ResourceNotFoundException', 'Extraction job not found.');
      store.remember('startJob', body.clientToken, { jobId });
      return jsonResponse({ jobId });
    }),
    // ListMemoryExtractionJobs: maxResults 1 to 100, "The default value is 20", nextToken, and a
    // filter on actor, session, strategy and status (ListMemoryExtractionJobsInput in
    // dist-types/models/models_1.d.ts; API_ListMemoryExtractionJobs.html). Only failed jobs are
    // ever stored, the reading of that page the adapter README gives (Extraction jobs).
    http.post(`${base}/memories/:memoryId/extractionJobs`, async ({ request, params }) => {
      const refused = refuseUnauthenticated(store, request, params.memoryId);
      if (refused !== undefined) return refused;
      const body = (await readBody(request)) ?? {};
      const filter = (body.filter ?? {}) as Record<string, unknown>;
      const maxResults = body.maxResults ?? 20;
      if (typeof maxResults !== 'number' || maxResults < 1 || maxResults > 100) return validationError('maxResults must be between 1 and 100.');
      let after = 0;
      if (body.nextToken !== undefined) {
        after = Number(Buffer.from(String(body.nextToken), 'base64url').toString('utf8'));
        if (!Number.isInteger(after)) return validationError('Invalid nextToken.');
      }
      const matching = [...store.jobs.values()].filter(
        (job) =>
          job.sequence > after &&
          (filter.actorId === undefined || job.actorId === filter.actorId) &&
          (filter.sessionId === undefined || job.sessionId === filter.sessionId) &&
          (filter.strategyId === undefined || job.strategyId === filter.strategyId) &&
          (filter.status === undefined || job.status === filter.status),
      );
      const page = matching.slice(0, maxResults);
      const last = page.at(-1);
      const nextToken = matching.length > maxResults && last !== undefined ? Buffer.from(String(last.sequence)).toString('base64url') : undefined;
      return jsonResponse({
        jobs: page.map(({ sequence: _sequence, ...job }) => job),
        ...(nextToken === undefined ? {} : { nextToken }),
      });
    }),
  ];
}
