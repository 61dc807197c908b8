// Query analysis lives in @memplane/core/rules, shared with @memplane/engine.
export { orExpression, queryTerms } from '@memplane/core/rules';
