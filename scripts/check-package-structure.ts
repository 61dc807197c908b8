/**
 * `npm run check-structure`: checks the repository's packages (see `structure/check-structure.ts`):
 * the standard skeleton, fitness to publish, a README section for each entry point, no package
 * cycle, no adapter among `@memplane/service`'s dependencies, and no ranking code under the
 * contract or a hosted adapter. Exits 1 and names every problem.
 */
import { join } from 'node:path';
import { checkRepositoryStructure } from './structure/check-structure';

// A root may be given (the tests check fixture repositories); by default, this repository.
const { packages, problems } = checkRepositoryStructure(process.argv[2] ?? join(import.meta.dirname, '..'));
if (problems.length > 0) {
  process.stderr.write(`Package structure problems:\n${problems.map((text) => `- ${text}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`Package structure: ${packages} packages follow the standard skeleton, with no package cycle.\n`);
