import type { Benchmark } from './bench-harness';
import { conformanceSuiteBenchmark } from './conformance-suite.bench';
import { coreValidationBenchmark } from './core-validation.bench';

/** Every benchmark, in the order BENCHMARKS.md lists them. */
export const benchmarks: Benchmark[] = [coreValidationBenchmark, conformanceSuiteBenchmark];
