/**
 * Sizes libuv's threadpool, where argon2 hashes (and file and crypto work) run, to one thread per
 * core unless UV_THREADPOOL_SIZE is set. libuv's default of four made four 19 MiB argon2 hashes fight
 * over two cores and their caches: one thread per core verified 25 % more passwords per second
 * (BENCHMARKS.md). libuv reads the variable when the pool first starts, so main.ts imports this
 * module before anything else.
 */
import { availableParallelism } from 'node:os';

process.env.UV_THREADPOOL_SIZE ??= String(Math.max(2, availableParallelism()));
