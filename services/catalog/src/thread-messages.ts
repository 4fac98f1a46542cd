import type { ProposalOutcome, ThreadMemory } from '@catalog/runtime';

export type ThreadKind = 'persistence' | 'indexer' | 'audit';

/** Messages between the catalog's main thread and its consumer threads. */
export type ThreadMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'stop' }
  | { readonly type: 'stopped' }
  | { readonly type: 'outcomes'; readonly outcomes: readonly ProposalOutcome[] }
  /** The main thread asks a consumer thread for its memory; the answer carries the same id. */
  | { readonly type: 'memory?'; readonly id: number }
  | { readonly type: 'memory'; readonly id: number; readonly memory: ThreadMemory };
