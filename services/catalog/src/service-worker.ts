import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger, ProposalOutcome, ThreadMemory } from '@catalog/runtime';
import type { CatalogConfig } from './config.js';
import type { ThreadKind, ThreadMessage } from './thread-messages.js';

export interface ServiceWorker {
  readonly ready: Promise<void>;
  /** What the thread reports of its own memory; undefined when it is not running or does not answer. */
  memory(): Promise<ThreadMemory | undefined>;
  stop(): Promise<void>;
}

/** How long a thread may take to report its memory before it is left out of the report. */
const MEMORY_ANSWER_MS = 1_000;

const require = createRequire(import.meta.url);

/** The ESM build of tsx's loader API (its CommonJS build cannot register hooks in a worker). */
function tsxEsmApi(): string {
  return pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
}

/** Profiling and inspection flags of this process, passed on to its threads. */
function diagnosticFlags(): string[] {
  return process.execArgv.filter((flag) => flag.startsWith('--cpu-prof') || flag.startsWith('--heap-prof'));
}

/**
 * Runs a consumer service in a worker thread and restarts it when it dies (both consumers are
 * idempotent, so a restart only redoes the uncommitted batch). Outcomes the thread reports go to
 * `onOutcomes`. From sources, the thread gets the same TypeScript loader as this process.
 */
export function startServiceWorker(
  kind: ThreadKind,
  config: CatalogConfig,
  logger: Logger,
  onOutcomes: (outcomes: readonly ProposalOutcome[]) => void = () => undefined,
): ServiceWorker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './service-thread.ts' : './service-thread.js', import.meta.url);
  const workerData = { config, kind };
  const resourceLimits = { maxYoungGenerationSizeMb: config.threadYoungGenerationMb };
  let worker: Worker | undefined;
  let stopping = false;
  let everReady = false;
  let nextMemoryId = 0;
  const memoryAnswers = new Map<number, (memory: ThreadMemory) => void>();
  let resolveReady: () => void = () => undefined;
  let rejectReady: (error: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });

  const spawn = (): void => {
    const current = fromSource
      ? // Loader hooks given by --import do not reach a worker's entry on Node 20: register them first.
        new Worker(
          `import(${JSON.stringify(tsxEsmApi())})` +
            `.then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`,
          { eval: true, workerData, resourceLimits, execArgv: ['--conditions=source', ...diagnosticFlags()] },
        )
      : new Worker(entry, { workerData, resourceLimits });
    worker = current;
    current.on('message', (message: ThreadMessage) => {
      if (message.type === 'outcomes') onOutcomes(message.outcomes);
      else if (message.type === 'memory') memoryAnswers.get(message.id)?.(message.memory);
      else if (message.type === 'ready') {
        everReady = true;
        resolveReady();
      }
    });
    current.on('error', (error) => logger.error({ err: error, thread: kind }, 'service thread failed'));
    current.on('exit', (code) => {
      if (stopping) return;
      if (!everReady) {
        rejectReady(new Error(`the ${kind} thread exited with code ${code} before it was ready`));
        return;
      }
      logger.error({ code, thread: kind }, 'service thread exited; restarting it');
      setTimeout(spawn, 1_000).unref();
    });
  };
  spawn();

  return {
    ready,
    memory: () => {
      const current = worker;
      if (!everReady || stopping || !current || current.threadId === -1) return Promise.resolve(undefined);
      const id = nextMemoryId++;
      return new Promise<ThreadMemory | undefined>((resolve) => {
        const timer = setTimeout(() => {
          memoryAnswers.delete(id);
          resolve(undefined);
        }, MEMORY_ANSWER_MS);
        memoryAnswers.set(id, (memory) => {
          clearTimeout(timer);
          memoryAnswers.delete(id);
          resolve(memory);
        });
        current.postMessage({ type: 'memory?', id } satisfies ThreadMessage);
      });
    },
    stop: async () => {
      stopping = true;
      const current = worker;
      if (!current || current.threadId === -1) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => void current.terminate().then(() => resolve()), 15_000);
        current.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        current.postMessage({ type: 'stop' } satisfies ThreadMessage);
      });
    },
  };
}
