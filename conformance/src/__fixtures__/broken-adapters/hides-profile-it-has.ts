import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/**
 * Test-only broken variant (capabilities): declares no profile, yet profile works instead of
 * throwing UnsupportedCapabilityError, so callers cannot trust the manifest.
 */
export const hidesProfileItHas: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    capabilities: { ...inner.capabilities, profile: false },
  });
