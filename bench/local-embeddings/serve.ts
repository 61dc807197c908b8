/**
 * Serves Universal Sentence Encoder lite over an OpenAI-compatible URL on 127.0.0.1, for the
 * benchmarks that measure with an embedding model.
 *
 *   node --import tsx bench/local-embeddings/serve.ts -- npm run bench engine-locomo
 *     starts the server, runs the command with MEMPLANE_EMBEDDINGS_URL, _MODEL and _DIMENSIONS
 *     set to it, stops the server and exits with the command's exit code.
 *   node --import tsx bench/local-embeddings/serve.ts [--port 4711]
 *     serves until Ctrl-C and prints the variables to set.
 */
import { spawn } from 'node:child_process';
import { loadUniversalSentenceEncoder } from './local-embedder';
import { startLocalEmbeddingsServer } from './local-embeddings-server';

const argv = process.argv.slice(2);
const separator = argv.indexOf('--');
const options = separator === -1 ? argv : argv.slice(0, separator);
const command = separator === -1 ? [] : argv.slice(separator + 1);
const portFlag = options.indexOf('--port');
const port = portFlag === -1 ? 0 : Number(options[portFlag + 1]);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write('--port needs a port number from 0 to 65535\n');
  process.exit(2);
}

const embedder = await loadUniversalSentenceEncoder();
const server = await startLocalEmbeddingsServer({ embedder, port });
const environment = {
  MEMPLANE_EMBEDDINGS_URL: server.baseURL,
  MEMPLANE_EMBEDDINGS_MODEL: embedder.model,
  MEMPLANE_EMBEDDINGS_DIMENSIONS: String(embedder.dimensions),
};
process.stderr.write(`local embeddings: ${embedder.model} (${embedder.dimensions} dimensions) at ${server.baseURL}\n`);

if (command.length === 0) {
  process.stdout.write(`${Object.entries(environment).map(([name, value]) => `export ${name}=${value}`).join('\n')}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env: { ...process.env, ...environment } });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.once('error', (error) => {
    process.stderr.write(`cannot run ${command[0]}: ${error.message}\n`);
    void server.close().then(() => process.exit(127));
  });
  child.once('exit', (code, signal) => {
    void server.close().then(() => process.exit(code ?? (signal === null ? 1 : 128)));
  });
}
