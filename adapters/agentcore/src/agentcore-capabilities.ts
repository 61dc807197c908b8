import type { MemoryAdapterCapabilities } from '@memplane/core';

/**
 * What the AgentCore adapter can do beyond the required operations, declared only where
 * AgentCore really supports it:
 * - `correction`: `BatchUpdateMemoryRecords` rewrites a record in place;
 * - `metadataFilter`: applied by the adapter after retrieval (AgentCore filters the scope fields);
 * - `providerManagedExtraction`: the memory's strategies extract records from captured events;
 * - `providerNativeBrowse`: AgentCore lists records, events, sessions and actors itself;
 * - `listExtractionJobs` and `retryExtractionJob`: failed jobs only, and their re-drive.
 *
 * Not declared: `asyncExtraction` (AgentCore reports no per-event status, so a job could never
 * be seen to succeed), `profile` (no native profile), `explain` (only a score), and
 * `multimodal` (blob payloads are stored, but strategies extract from conversations).
 */
export const agentCoreCapabilities = {
  correction: true,
  metadataFilter: true,
  providerManagedExtraction: true,
  providerNativeBrowse: true,
  listExtractionJobs: true,
  retryExtractionJob: true,
  asyncExtraction: false,
  profile: false,
  explain: false,
  multimodal: false,
} as const satisfies MemoryAdapterCapabilities;
