/**
 * `npm run demo`: the scripted agent company of the memory service. Run it from the
 * repository root after building the workspace packages it depends on:
 *   turbo run build --filter=@memplane/service... --output-logs=errors-only && tsx packages/service/demo/run-demo.ts
 */
import { memoryServiceDemoCommand } from '../src/demo/demo-command';

const code = await memoryServiceDemoCommand.run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = code;
