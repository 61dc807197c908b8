import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { memplaneMiddleware } from '@memplane/ai-sdk';
import { provider as markdownProvider } from '@memplane/markdown/provider';
import { createMemoryService, type MemoryService } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { generateText, wrapLanguageModel, type LanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { formatNumber, percentile, type Benchmark } from './bench-harness';
import { seededRandom, syntheticCorpus, syntheticQueries } from './markdown-synthetic-corpus';

const recordCount = 10_000;
const rounds = 12;
const callsPerRound = 40;
const warmupCalls = 40;
const topics = ['deploy', 'billing', 'staging', 'oncall', 'release', 'database', 'backup', 'review', 'pricing', 'hiring'];
const subjects = ['window', 'checklist', 'owner', 'budget', 'runbook', 'schedule', 'alerting', 'rollback'];
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

/** A model that answers at once, so the middleware's own work is all that differs between variants. */
const instantModel = () =>
  new MockLanguageModelV3({
    provider: 'bench',
    modelId: 'instant',
    doGenerate: async () => ({ content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }),
  });

/** The embedded default with the given records in the company's markdown memory. */
async function seededService(directory: string, texts: string[]): Promise<MemoryService> {
  const service = await createMemoryService({
    store: createSqliteMemoryServiceStore({ filename: join(directory, 'memplane.db') }),
    dataDirectory: directory,
    providers: [markdownProvider],
  });
  const control = service.control({ actor: { kind: 'company', companyId: 'acme' } });
  await control.createBinding({ key: 'default', providerId: 'markdown' });
  await control.setTarget({ targetType: 'company' }, 'default');
  const runtime = service.runtime({ actor: { kind: 'company', companyId: 'acme' } });
  for (let start = 0; start < texts.length; start += 500) {
    await runtime.upsertRecords({ records: texts.slice(start, start + 500).map((text) => ({ text })) });
  }
  await service.flush();
  return service;
}

/** Notes in plain English from one template: every record shares most of its words with every question (a worst case for a lexical index). */
function templatedNotes(): { texts: string[]; questions: string[] } {
  const random = seededRandom(18);
  const pick = <Value>(values: Value[]) => values[Math.floor(random() * values.length)] as Value;
  const texts = Array.from(
    { length: recordCount },
    (_, index) => `Note ${index}: the ${pick(topics)} ${pick(subjects)} changed in week ${1 + Math.floor(random() * 52)}, agreed with team ${pick(['red', 'blue', 'green', 'amber'])}.`,
  );
  const questions = Array.from({ length: 200 }, (_, index) => `What changed in the ${topics[index % topics.length]} ${subjects[index % subjects.length]}?`);
  return { texts, questions };
}

type Row = string[];

async function measure(label: string, service: MemoryService, questions: string[], figures: Record<string, unknown>): Promise<Row[]> {
  const agent = { companyId: 'acme', agentId: 'assistant', runId: 'bench-run' };
  const bare = instantModel();
  const hydrated: LanguageModel = wrapLanguageModel({ model: instantModel(), middleware: memplaneMiddleware(service, { agent, capture: false }) });
  let turn = 0;
  // A new turn is a new user message: its position and text are new, so it is never served from the turn cache.
  const newTurn = () => {
    turn += 1;
    return [
      ...Array.from({ length: turn % 3 }, () => ({ role: 'user' as const, content: 'Earlier message.' })),
      { role: 'user' as const, content: `${questions[turn % questions.length]} (${turn})` },
    ];
  };
  const sameTurn = [{ role: 'user' as const, content: questions[0] as string }];
  const variants: Record<string, () => Promise<unknown>> = {
    'model alone': () => generateText({ model: bare, messages: newTurn() }),
    'with middleware, new turn (recall)': () => generateText({ model: hydrated, messages: newTurn() }),
    'with middleware, same turn (cached recall)': () => generateText({ model: hydrated, messages: sameTurn }),
  };
  const names = Object.keys(variants);
  for (const name of names) for (let call = 0; call < warmupCalls; call += 1) await variants[name]!();
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      for (let call = 0; call < callsPerRound; call += 1) {
        const started = performance.now();
        await variants[name]!();
        samples[name]!.push((performance.now() - started) * 1000);
      }
    }
  }
  const baseP50 = percentile(samples['model alone']!, 50);
  return names.map((name) => {
    const p50 = percentile(samples[name]!, 50);
    const p99 = percentile(samples[name]!, 99);
    const added = name === 'model alone' ? undefined : (p50 - baseP50) / 1000;
    figures[`${label} / ${name}`] = { p50Microseconds: p50, p99Microseconds: p99, ...(added === undefined ? {} : { addedP50Milliseconds: added }) };
    return [
      label,
      name,
      formatNumber(p50 / 1000, 2),
      formatNumber(p99 / 1000, 2),
      added === undefined ? '–' : formatNumber(added, 2),
      added === undefined || name.includes('cached') ? '–' : added <= 5 ? 'met' : 'missed',
    ];
  });
}

export const aiSdkMiddlewareBenchmark: Benchmark = {
  name: 'ai-sdk-middleware',
  description:
    'The latency memplaneMiddleware adds to a model call for hydration (pre_run_hydrate through the service, the marked block) on the embedded default (SQLite service store, markdown memory with 10,000 records in the agent\'s company), against the same instant mock model without it, interleaved in one process.',
  async run() {
    const figures: Record<string, unknown> = { records: recordCount, loadAverageBefore: loadavg() };
    const rows: Row[] = [];
    const research = syntheticCorpus(recordCount, 1);
    const corpora = [
      { label: 'research corpus (Zipf pseudo-words)', texts: research.records.map((record) => record.text), questions: syntheticQueries(research.words, 200) },
      { label: 'templated English notes (worst case)', ...templatedNotes() },
    ];
    for (const corpus of corpora) {
      const directory = mkdtempSync(join(tmpdir(), 'memplane-bench-ai-sdk-'));
      const service = await seededService(directory, corpus.texts);
      try {
        rows.push(...(await measure(corpus.label, service, corpus.questions, figures)));
      } finally {
        await service.close();
        rmSync(directory, { recursive: true, force: true });
      }
    }
    figures.loadAverageAfter = loadavg();
    return {
      tables: [
        {
          title: `Hydration latency added per model call, markdown memory with ${recordCount.toLocaleString('en-US')} records (ms)`,
          columns: ['corpus', 'variant', 'p50', 'p99', 'added p50', 'target ≤ 5 ms'],
          rows,
          notes: [
            `Per-call wall time of \`generateText\` with the AI SDK's mock model, ${rounds} rounds × ${callsPerRound} calls per variant after ${warmupCalls} warm-up calls, variants interleaved round by round (alternating order). Load average before and after: ${(figures.loadAverageBefore as number[]).map((value) => value.toFixed(1)).join(' ')} / ${loadavg().map((value) => value.toFixed(1)).join(' ')}.`,
            'Added = the variant\'s p50 minus "model alone". A new turn runs pre_run_hydrate (resolution, policy, the markdown full-text query with topK 8, the preamble, the operation log) and inserts the block; a cached turn is what a tool-loop step of the same turn pays. Capture is off here: it runs after the reply, in the background.',
            'Research corpus: the corpus of the markdown-performance benchmark (5k pseudo-words, Zipf, 30 to 60 words a record), all 10,000 records in one company; questions of 2 or 3 terms. Templated notes: every record is "Note n: the <topic> <subject> changed in week <w>, agreed with team <t>." and every question "What changed in the <topic> <subject>?", so each query matches nearly every record.',
          ],
        },
      ],
      figures,
    };
  },
};
