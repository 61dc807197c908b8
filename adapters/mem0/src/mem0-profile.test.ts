import { setupTestServer } from '@memplane/test-server/with-vitest';
import { describe, expect, it } from 'vitest';
import { createMem0Fake } from './testing/mem0-fake-server';
import { renderProfile } from './mem0-profile';
import { createTestAdapter } from './testing/mem0-test-support';

const fake = createMem0Fake({ profileThreshold: 2 });
const disabled = createMem0Fake({ host: 'https://disabled.mem0.test', profilesEnabled: false });
const testServer = setupTestServer([...fake.handlers, ...disabled.handlers]);

describe('mem0 profile', () => {
  it('reads the profile of the scope subject, once mem0 generated it', async () => {
    const adapter = createTestAdapter(fake);
    const scope = { companyId: 'acme', subjectId: 'alice' };
    await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'Alice prefers tea.' }] });
    const tooEarly = await adapter.profile(scope);
    expect(tooEarly.summary).toBe('');
    expect(tooEarly.warnings).toContainEqual({ type: 'other', message: 'mem0 has no profile for this subject yet (status insufficient_data).' });

    await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: 'Alice deploys on Fridays.' }] });
    expect((await adapter.profile(scope)).warnings).toContainEqual({ type: 'other', message: 'mem0 has no profile for this subject yet (status pending).' });

    fake.drain();
    const profile = await adapter.profile(scope);
    expect(profile.summary).toBe('preferences: Alice prefers tea.; Alice deploys on Fridays.');
    expect(profile.items).toBeUndefined();
    expect(testServer.calls.filter((call) => call.pathname.endsWith('/profile/')).map((call) => call.pathname)).toContain('/v2/entities/user/acme~alice/profile/');
  });

  it('never reads another company profile for the same subject name', async () => {
    const adapter = createTestAdapter(fake);
    await adapter.upsertRecords({ bindingKey: 'b', scope: { companyId: 'globex', subjectId: 'carol' }, records: [{ text: 'Carol at Globex.' }, { text: 'Carol likes maps.' }] });
    fake.drain();
    expect((await adapter.profile({ companyId: 'globex', subjectId: 'carol' })).summary).toContain('Carol likes maps.');
    expect((await adapter.profile({ companyId: 'initech', subjectId: 'carol' })).summary).toBe('');
  });

  it('says why there is no profile: no subject in the scope, or profiles off for the project', async () => {
    const noSubject = await createTestAdapter(fake).profile({ companyId: 'acme', agentId: 'planner' });
    expect(noSubject).toMatchObject({ summary: '', warnings: [expect.objectContaining({ type: 'unsupported', feature: 'profile' })] });
    await createTestAdapter(disabled).upsertRecords({ bindingKey: 'b', scope: { companyId: 'acme', subjectId: 'alice' }, records: [{ text: 'Alice exists.' }] });
    const off = await createTestAdapter(disabled).profile({ companyId: 'acme', subjectId: 'alice' });
    expect(off.warnings).toContainEqual({ type: 'other', message: 'mem0 has no profile for this subject yet (status not_enabled).' });
  });

  it('reads profiles of ids holding path characters, from a server that routes on the decoded path', async () => {
    const adapter = createTestAdapter(fake);
    const hostile = [
      { companyId: 'acme/eu', subjectId: 'alice' },
      { companyId: 'acme', subjectId: 'al/ice' },
      { companyId: 'acme', subjectId: '50%2F..%2Fx ?#é~.' },
    ];
    for (const scope of hostile) {
      await adapter.upsertRecords({ bindingKey: 'b', scope, records: [{ text: `${scope.subjectId} likes maps.` }, { text: `${scope.subjectId} likes tea.` }] });
    }
    fake.drain();
    for (const scope of hostile) expect((await adapter.profile(scope)).summary).toContain(`${scope.subjectId} likes maps.`);
  });

  it('reads the documented 404 of a subject mem0 does not know as an empty profile, not an error', async () => {
    const profile = await createTestAdapter(fake).profile({ companyId: 'acme', subjectId: 'nobody-yet' });
    expect(profile.summary).toBe('');
    expect(profile.warnings).toContainEqual(expect.objectContaining({ type: 'other', message: expect.stringContaining('no such user') }));
  });

  it('renders structured profiles one line per key, skipping empty values', () => {
    expect(renderProfile({ name: 'Alice', drinks: ['tea', 'water'], empty: [], nothing: null, details: { city: 'Lyon' } })).toBe('name: Alice\ndrinks: tea; water\ndetails: {"city":"Lyon"}');
  });
});
