import type { ProposalOutcome } from '@catalog/runtime';

export type ThreadKind = 'persistence' | 'indexer' | 'audit';

/** Messages between the catalog's main thread and its consumer threads. */
export type ThreadMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'stop' }
  | { readonly type: 'stopped' }
  | { readonly type: 'outcomes'; readonly outcomes: readonly ProposalOutcome[] };
