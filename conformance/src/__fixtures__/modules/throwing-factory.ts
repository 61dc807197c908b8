// Test-only module for the CLI: the factory throws, as one missing its settings would.
export function createAdapter(): never {
  throw new TypeError('ACME_API_KEY is not set');
}
