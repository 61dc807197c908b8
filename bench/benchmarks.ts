import { agentCoreOverheadBenchmark } from './agentcore-overhead.bench';
import { aiSdkMiddlewareBenchmark } from './ai-sdk-middleware.bench';
import type { Benchmark } from './bench-harness';
import { conformanceSuiteBenchmark } from './conformance-suite.bench';
import { coreValidationBenchmark } from './core-validation.bench';
import { engineBenchmark } from './engine.bench';
import { engineLocomoBenchmark } from './engine-locomo.bench';
import { markdownDurabilityBenchmark } from './markdown-durability.bench';
import { markdownLocomoBenchmark } from './markdown-locomo.bench';
import { markdownPerformanceBenchmark } from './markdown-performance.bench';
import { mem0OverheadBenchmark } from './mem0-overhead.bench';
import { serverBenchmark } from './server.bench';
import { serviceOverheadBenchmark } from './service-overhead.bench';
import { serviceStoreExplorerBenchmark, serviceStoreLogWritesBenchmark } from './service-store.bench';
import { supermemoryOverheadBenchmark } from './supermemory-overhead.bench';

/** Every benchmark, in the order BENCHMARKS.md lists them. */
export const benchmarks: Benchmark[] = [
  coreValidationBenchmark,
  conformanceSuiteBenchmark,
  markdownPerformanceBenchmark,
  markdownLocomoBenchmark,
  markdownDurabilityBenchmark,
  engineBenchmark,
  engineLocomoBenchmark,
  mem0OverheadBenchmark,
  supermemoryOverheadBenchmark,
  agentCoreOverheadBenchmark,
  serviceOverheadBenchmark,
  serviceStoreLogWritesBenchmark,
  serviceStoreExplorerBenchmark,
  serverBenchmark,
  aiSdkMiddlewareBenchmark,
];
