import type avro from 'avsc';
import { parseAvroSchema } from './schema-registry/avro-schema-text.js';
import type { SchemaResolver } from './serde.js';

export interface RegistryClientOptions {
  /** Base URL of a Confluent-compatible registry, e.g. http://schema-registry:8081 or <gms>/schema-registry/api. */
  readonly url: string;
  /** Per request. Default 10 s. */
  readonly timeoutMs?: number;
  /** Injected in tests; the global fetch otherwise. */
  readonly fetch?: typeof fetch;
}

/** Raised when the registry cannot be asked (network, 5xx): retriable, unlike an unknown id. */
export class SchemaRegistryUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SchemaRegistryUnavailableError';
  }
}

/**
 * A SchemaResolver over a Confluent-compatible registry (KAFKA_SCHEMAREGISTRY_URL): GET /schemas/ids/{id}.
 * Ids never change meaning, so found schemas are cached for the life of the process; a 404 is not cached
 * (the schema may be registered later).
 */
export function registrySchemaResolver(options: RegistryClientOptions): SchemaResolver {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const cache = new Map<number, Promise<avro.Type | undefined>>();

  const load = async (id: number): Promise<avro.Type | undefined> => {
    let res: Response;
    try {
      res = await doFetch(`${base}/schemas/ids/${id}`, {
        headers: { accept: 'application/vnd.schemaregistry.v1+json, application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (cause) {
      throw new SchemaRegistryUnavailableError(`schema registry at ${base} unreachable`, { cause });
    }
    if (res.status === 404) return undefined;
    if (!res.ok)
      throw new SchemaRegistryUnavailableError(`schema registry answered ${res.status} for id ${id}`);
    const body = (await res.json()) as { schema?: unknown; schemaType?: unknown };
    if (body.schemaType !== undefined && body.schemaType !== 'AVRO') return undefined;
    if (typeof body.schema !== 'string')
      throw new SchemaRegistryUnavailableError(`no schema text for id ${id}`);
    return parseAvroSchema(body.schema).type;
  };

  return (id) => {
    let found = cache.get(id);
    if (!found) {
      found = load(id);
      cache.set(id, found);
      found.then(
        (type) => {
          if (!type) cache.delete(id);
        },
        () => cache.delete(id),
      );
    }
    return found;
  };
}
