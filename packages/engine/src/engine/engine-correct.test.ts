import { describe, expect, it } from 'vitest';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { createMemoryEngine } from './create-memory-engine';

const scope = { org: 'acme', project: 'apollo' };

async function writtenItem() {
  const engine = await createMemoryEngine({ scope: orgProjectScope, now: steppingClock() });
  const [item] = await engine.writeItems(scope, [
    { text: 'Deploys need two reviewers.', summary: 'Two reviewers per deploy.', metadata: { team: 'platform', tier: 1 } },
  ]);
  return { engine, id: item?.id as string };
}

describe('engine.correct patches only the fields it is given', () => {
  it('changes only the summary when the other fields are given as undefined, as the adapter passes them', async () => {
    const { engine, id } = await writtenItem();
    const corrected = await engine.correct(scope, id, { text: undefined, summary: 'Two reviewers, one from platform.', metadata: undefined });
    expect(corrected).toMatchObject({ text: 'Deploys need two reviewers.', summary: 'Two reviewers, one from platform.', metadata: { team: 'platform', tier: 1 }, version: 2 });
  });

  it('changes only the metadata and keeps the text and summary', async () => {
    const { engine, id } = await writtenItem();
    const corrected = await engine.correct(scope, id, { text: undefined, summary: undefined, metadata: { team: 'infra', tier: 1 } });
    expect(corrected).toMatchObject({ text: 'Deploys need two reviewers.', summary: 'Two reviewers per deploy.', metadata: { team: 'infra', tier: 1 } });
    expect((await engine.getItems(scope, [id])).get(id)).toMatchObject({ text: 'Deploys need two reviewers.', summary: 'Two reviewers per deploy.' });
  });
});
