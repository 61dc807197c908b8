import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentCoreCapabilities } from './agentcore-capabilities';
import { agentCoreIndexedKeys } from './agentcore-scope-mapping';
import { setupAgentCoreTestEnvironment } from './testing/agentcore-test-environment';

const environment = setupAgentCoreTestEnvironment();
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function capabilityTable(): Record<string, boolean> {
  const section = readme.slice(readme.indexOf('## Capabilities'), readme.indexOf('## Operations'));
  const rows = [...section.matchAll(/^\| `(\w+)` \| (\*\*no\*\*|yes) \|/gm)];
  return Object.fromEntries(rows.map(([, flag, value]) => [flag, value === 'yes']));
}

describe('README', () => {
  it('states exactly the capabilities the adapter declares', () => {
    expect(capabilityTable()).toEqual(agentCoreCapabilities);
    expect(environment.createAdapter().capabilities).toEqual(agentCoreCapabilities);
  });

  it('lists exactly the indexed keys the adapter filters on and the setup declares', () => {
    const section = readme.slice(readme.indexOf('## Setting up the memory'), readme.indexOf('## Settings'));
    const keys = [...section.matchAll(/^\| `(memplane\.[\w.]+)` \|/gm)].map(([, key]) => key);
    expect(keys).toEqual([...agentCoreIndexedKeys]);
  });
});
