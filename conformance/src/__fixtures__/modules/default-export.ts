// Test-only module for the loader: the adapter factory is the default export.
export default function createFixtureAdapter(): { origin: string } {
  return { origin: 'default export' };
}

/** A named createAdapter the loader must NOT prefer over the default export. */
export function createAdapter(): { origin: string } {
  return { origin: 'named createAdapter' };
}

export const faults = { inject: () => undefined, reset: () => undefined };
export function createPeerAdapter(): { origin: string } {
  return { origin: 'peer' };
}
export async function waitForConsistency(): Promise<void> {}
