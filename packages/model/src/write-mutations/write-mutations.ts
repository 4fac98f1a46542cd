import { withOwnerTypes } from './ownership-owner-types.js';

type Json = Record<string, unknown>;

/**
 * Server-managed parts of an aspect, filled in on every write whatever route it came by (a whole value
 * or a patch's result), as the ecosystem's mutation hooks fill them, by aspect name.
 */
const WRITE_MUTATIONS: Readonly<Record<string, (value: Json) => Json>> = {
  ownership: withOwnerTypes,
};

/** The value an aspect write stores: the written value with its server-managed parts filled in. */
export function mutateOnWrite(aspectName: string, value: Json): Json {
  const mutate = WRITE_MUTATIONS[aspectName];
  return mutate === undefined ? value : mutate(value);
}
