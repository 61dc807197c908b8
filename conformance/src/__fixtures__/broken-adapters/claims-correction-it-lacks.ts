import { wrapAdapter, type AdapterBreaker } from './wrap-adapter';

/**
 * Test-only broken variant (capabilities): declares correction, but correct throws a plain
 * `Error` instead of working (and instead of a typed error).
 */
export const claimsCorrectionItLacks: AdapterBreaker = (inner) =>
  wrapAdapter(inner, {
    capabilities: { ...inner.capabilities, correction: true },
    async correct() {
      // A plain Error on purpose: this fixture simulates an adapter that breaks the error contract.
      throw new Error('correct is not implemented yet');
    },
  });
