// Test-only module for the loader: plain JavaScript with named factories only.
export function createAdapter() {
  return { origin: 'named createAdapter' };
}

export function createStagingAdapter() {
  return { origin: 'staging' };
}

export const notAFunction = 42;
