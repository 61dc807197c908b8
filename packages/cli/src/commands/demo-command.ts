import { lazyCommand } from './lazy-command';

/** `memplane demo`: the scripted two-company memory service demo, from `@memplane/service`. */
export const demoCommand = lazyCommand({
  name: 'demo',
  summary: 'Run the scripted two-company memory service demo on embedded SQLite and markdown (from @memplane/service).',
  usage: 'memplane demo [--data-directory <folder>]',
  packageName: '@memplane/service',
  load: async () => (await import('@memplane/service')).memoryServiceDemoCommand,
});
