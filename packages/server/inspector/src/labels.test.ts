import { describe, expect, it } from 'vitest';
import { bindingGroupLabel, capabilityLabel, describeSource, unresolvedBindingKey } from './labels';

describe('labels', () => {
  it('names capability flags in words', () => {
    expect(capabilityLabel('listExtractionJobs')).toBe('List extraction jobs');
    expect(capabilityLabel('retryExtractionJob')).toBe('Retry extraction job');
    expect(capabilityLabel('asyncExtraction')).toBe('Async extraction');
    expect(capabilityLabel('metadataFilter')).toBe('Metadata filter');
    expect(capabilityLabel('explain')).toBe('Explain');
    expect(capabilityLabel('providerManagedExtraction')).toBe('Provider-managed extraction');
    // A flag this build does not know yet still reads as words.
    expect(capabilityLabel('sharedRecordsAcrossAgents')).toBe('Shared records across agents');
  });

  it('names the group of calls refused before a binding was chosen, and leaves binding keys alone', () => {
    expect(bindingGroupLabel(unresolvedBindingKey)).toBe('Refused before a binding was chosen');
    expect(bindingGroupLabel('notes')).toBe('notes');
  });

  it('names each source kind once', () => {
    expect(describeSource({ companyId: 'acme', kind: 'run', runId: 'run-77' })).toBe('run run-77');
    expect(describeSource({ companyId: 'acme', kind: 'issue', issueId: 'ISS-9' })).toBe('issue ISS-9');
    expect(describeSource({ companyId: 'acme', kind: 'issue_comment', issueId: 'ISS-7', commentId: 'c-42' })).toBe('issue ISS-7 · comment c-42');
    expect(describeSource({ companyId: 'acme', kind: 'issue_document', issueId: 'ISS-7', documentKey: 'plan' })).toBe('issue ISS-7 · document plan');
    expect(describeSource({ companyId: 'acme', kind: 'activity', activityId: 'a-1' })).toBe('activity a-1');
    expect(describeSource({ companyId: 'acme', kind: 'manual_note' })).toBe('manual note');
    expect(describeSource({ companyId: 'acme', kind: 'external_document', externalRef: 'https://docs.example/a' })).toBe('external document https://docs.example/a');
    // A kind without the field that names it keeps its own words.
    expect(describeSource({ companyId: 'acme', kind: 'issue_comment', issueId: 'ISS-7' })).toBe('issue comment · issue ISS-7');
    expect(describeSource({ companyId: 'acme', kind: 'run', issueId: 'ISS-3' })).toBe('run · issue ISS-3');
    expect(describeSource(undefined)).toBe('—');
  });
});
