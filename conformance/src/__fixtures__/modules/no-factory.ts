// Test-only module for the loader: nothing that creates an adapter.
export const settings = { region: 'eu' };
