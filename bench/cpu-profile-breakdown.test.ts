import { describe, expect, it } from 'vitest';
import { chargeProfileSamples, type Profile } from './cpu-profile-breakdown';

const categories = [
  { name: 'adapter', url: /\/adapters\/example\/dist\// },
  { name: 'sdk', url: /\/node_modules\/example-sdk\// },
];

/** root → adapter → native JSON.parse; root → sdk; root → (garbage collector); root → (idle). */
const profile: Profile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 4, 5, 6, 7] },
    { id: 2, callFrame: { functionName: 'toSnippet', url: 'file:///repo/adapters/example/dist/index.js' }, children: [3] },
    { id: 3, callFrame: { functionName: 'parse', url: '' } },
    { id: 4, callFrame: { functionName: 'search', url: 'file:///repo/node_modules/example-sdk/index.js' } },
    { id: 5, callFrame: { functionName: '(garbage collector)', url: '' } },
    { id: 6, callFrame: { functionName: '(idle)', url: '' } },
    { id: 7, callFrame: { functionName: 'emit', url: 'node:events' } },
  ],
  samples: [2, 3, 3, 4, 5, 6, 7, 1],
  timeDeltas: [10, 20, 30, 40, 50, 60, 70, 80],
};

describe('chargeProfileSamples', () => {
  it('charges native frames to their caller, keeps garbage collection apart and leaves idle time out', () => {
    const totals = chargeProfileSamples(profile, categories, 2);
    expect(Object.fromEntries(totals)).toEqual({
      adapter: 30,
      sdk: 20,
      'garbage collection': 25,
      'other Node.js and native code': 75,
    });
  });
});
