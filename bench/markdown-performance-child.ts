import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openSaved, timeQueries } from './markdown-performance-engines';

// A fresh process per engine, so the open time and the RSS are that engine's alone.
const [engine, path, queriesFile] = process.argv.slice(2) as ['markdown' | 'minisearch' | 'orama', string, string];
const queries = JSON.parse(readFileSync(queriesFile, 'utf8')) as string[];
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const run = await openSaved(engine, path);
const openMs = performance.now() - started;
const timings = await timeQueries(queries, run);
process.stdout.write(`${JSON.stringify({ openMs, rssBeforeMb: rssBefore / 2 ** 20, rssAfterMb: process.memoryUsage().rss / 2 ** 20, ...timings })}\n`);
