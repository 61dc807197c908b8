// PII detection lives in @memplane/core/rules, shared with @memplane/engine.
export { detectPii, piiRiskOf, type PiiFinding, type PiiScannedContent } from '@memplane/core/rules';
