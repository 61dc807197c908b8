/**
 * `npm run demo`: the scripted agent company of the memory service. The root script builds the
 * workspace packages this example uses, then runs this file with tsx:
 *   turbo run build --filter=@example/service-demo... --output-logs=errors-only && tsx examples/service-demo/src/run-demo.ts
 */
import { runDemoCommand } from './demo-command';

process.exitCode = await runDemoCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
