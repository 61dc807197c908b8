/**
 * A response that never comes, as from a provider that stopped answering. It settles with
 * a network error once the request's signal aborts (the client's timeout fired) or its
 * release function in `hanging` is called, so no promise outlives the test.
 */
export function hangUntilAborted(request: Request, hanging: Set<() => void>): Promise<Response> {
  return new Promise((resolve) => {
    if (request.signal.aborted) {
      resolve(Response.error());
      return;
    }
    const release = () => {
      request.signal.removeEventListener('abort', release);
      hanging.delete(release);
      resolve(Response.error());
    };
    hanging.add(release);
    request.signal.addEventListener('abort', release, { once: true });
  });
}
