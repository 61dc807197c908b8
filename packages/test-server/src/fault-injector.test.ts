import { MemoryValidationError, type MemoryFault } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createFaultInjector } from './fault-injector';

const url = 'https://provider.example.test/v1/memories';

const validationError = (field: string) =>
  expect.objectContaining({ code: 'MEMORY_VALIDATION', field }) as MemoryValidationError;

describe('createFaultInjector', () => {
  it('answers nothing while no fault is in force', () => {
    const faults = createFaultInjector();
    expect(faults.respond(new Request(url))).toBeUndefined();
    expect(faults.isExtractionFailureInForce()).toBe(false);
    expect(faults.active).toEqual([]);
  });

  it('answers rate_limited with 429, Retry-After in seconds and a JSON error body', async () => {
    const faults = createFaultInjector();
    faults.inject({ kind: 'rate_limited', retryAfterSeconds: 3 });
    const response = await faults.respond(new Request(url));
    expect(response?.status).toBe(429);
    expect(response?.headers.get('retry-after')).toBe('3');
    expect(response?.headers.get('content-type')).toBe('application/json');
    expect(await response?.json()).toEqual({ error: 'rate_limited', message: expect.any(String) });
  });

  it('answers server_error with the injected status and a JSON error body', async () => {
    const faults = createFaultInjector();
    faults.inject({ kind: 'server_error', status: 502 });
    const response = await faults.respond(new Request(url));
    expect(response?.status).toBe(502);
    expect(await response?.json()).toMatchObject({ error: 'server_error' });
  });

  it('answers malformed_body with valid JSON of the wrong shape by default', async () => {
    const faults = createFaultInjector();
    faults.inject({ kind: 'malformed_body' });
    const response = await faults.respond(new Request(url));
    expect(response?.status).toBe(200);
    expect(await response?.json()).toEqual({ unexpected: true });
  });

  it('answers malformed_body with text that is not JSON when asked to', async () => {
    const faults = createFaultInjector({ malformedStyle: 'invalid-json' });
    faults.inject({ kind: 'malformed_body' });
    const response = await faults.respond(new Request(url));
    expect(response?.status).toBe(200);
    const text = (await response?.text()) ?? '';
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('holds a timeout answer until the request aborts, then settles with a network error', async () => {
    const faults = createFaultInjector();
    faults.inject({ kind: 'timeout' });
    const controller = new AbortController();
    const answer = faults.respond(new Request(url, { signal: controller.signal }));
    expect(answer).toBeInstanceOf(Promise);
    expect(faults.hangingRequestCount).toBe(1);

    controller.abort();

    await expect(answer).resolves.toMatchObject({ type: 'error' });
    expect(faults.hangingRequestCount).toBe(0);
  });

  it('settles a timeout answer at once for a request that was already aborted', async () => {
    const faults = createFaultInjector();
    faults.inject({ kind: 'timeout' });
    const answer = faults.respond(new Request(url, { signal: AbortSignal.abort() }));
    await expect(answer).resolves.toMatchObject({ type: 'error' });
    expect(faults.hangingRequestCount).toBe(0);
  });

  it('releases requests held by a timeout on reset, even without an abort signal', async () => {
    const faults = createFaultInjector();
    faults.inject({ kind: 'timeout' });
    const answers = [faults.respond(new Request(url)), faults.respond(new Request(url))];
    expect(faults.hangingRequestCount).toBe(2);

    faults.reset();

    await expect(Promise.all(answers)).resolves.toMatchObject([{ type: 'error' }, { type: 'error' }]);
    expect(faults.hangingRequestCount).toBe(0);
    expect(faults.respond(new Request(url))).toBeUndefined();
  });

  it('keeps extraction_failure out of HTTP answers and beside the HTTP fault in force', async () => {
    const faults = createFaultInjector();
    faults.inject({ kind: 'extraction_failure' });
    expect(faults.isExtractionFailureInForce()).toBe(true);
    expect(faults.respond(new Request(url))).toBeUndefined();

    faults.inject({ kind: 'server_error', status: 500 });
    expect((await faults.respond(new Request(url)))?.status).toBe(500);
    expect(faults.isExtractionFailureInForce()).toBe(true);

    faults.reset();
    expect(faults.isExtractionFailureInForce()).toBe(false);
  });

  it('lets the latest HTTP fault replace the previous one', async () => {
    const faults = createFaultInjector();
    faults.inject({ kind: 'server_error', status: 500 });
    faults.inject({ kind: 'rate_limited', retryAfterSeconds: 1 });
    expect(faults.active).toEqual([{ kind: 'rate_limited', retryAfterSeconds: 1 }]);
    expect((await faults.respond(new Request(url)))?.status).toBe(429);
  });

  it('adds provider error details through decorateError, in place or by replacement', async () => {
    const inPlace = createFaultInjector({
      decorateError: (response, fault) => {
        response.headers.set('x-amzn-errortype', fault.kind === 'rate_limited' ? 'ThrottlingException' : 'InternalServerException');
      },
    });
    inPlace.inject({ kind: 'rate_limited', retryAfterSeconds: 2 });
    const throttled = await inPlace.respond(new Request(url));
    expect(throttled?.headers.get('x-amzn-errortype')).toBe('ThrottlingException');
    expect(throttled?.headers.get('retry-after')).toBe('2');

    const replaced = createFaultInjector({
      decorateError: (_response, fault) => Response.json({ detail: `failed with ${fault.kind}` }, { status: 500 }),
    });
    replaced.inject({ kind: 'server_error', status: 503 });
    const answer = await replaced.respond(new Request(url));
    expect(await answer?.json()).toEqual({ detail: 'failed with server_error' });

    replaced.inject({ kind: 'malformed_body' });
    expect(await (await replaced.respond(new Request(url)))?.json()).toEqual({ unexpected: true });
  });

  it('refuses an invalid fault with a validation error naming the field', () => {
    const faults = createFaultInjector();
    expect(() => faults.inject({ kind: 'server_error', status: 200 })).toThrow(validationError('fault.status'));
    const unknownKind = { kind: 'meltdown' } as unknown as MemoryFault;
    expect(() => faults.inject(unknownKind)).toThrow(validationError('fault.kind'));
    expect(faults.active).toEqual([]);
  });

  it('refuses invalid settings with a validation error naming the field', () => {
    const settings = { malformedStyle: 'garbled' } as unknown as Parameters<typeof createFaultInjector>[0];
    expect(() => createFaultInjector(settings)).toThrow(validationError('malformedStyle'));
  });
});
