import { setPriority } from 'node:os';
import type { Logger } from './logger.js';

/**
 * Runs the calling thread at `nice` (0 leaves it). On Linux a priority belongs to a thread, and the
 * threads it starts later (the libuv pool, workers) inherit it, so a service's main module calls this
 * before it opens anything. Raising the value needs no privilege; a refusal is logged and ignored.
 */
export function runAtNice(nice: number, logger: Logger): void {
  if (nice === 0) return;
  try {
    setPriority(nice);
  } catch (error) {
    logger.warn({ err: error, nice }, 'could not lower the process priority');
  }
}
