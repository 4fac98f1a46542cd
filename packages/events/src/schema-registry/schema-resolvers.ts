import type avro from 'avsc';
import { eventSchemaById } from '../schemas/event-schemas.js';
import type { SchemaResolver } from '../serde.js';
import { parseAvroSchema } from './avro-schema-text.js';
import type { SchemaRegistrations } from './schema-registrations.js';

/** Resolves our fixed ids, then the schemas registered with our registry. */
export function registeredSchemaResolver(registrations: SchemaRegistrations): SchemaResolver {
  return async (id) => {
    const fixed = eventSchemaById(id);
    if (fixed) return fixed.type;
    const registered = await registrations.byId(id);
    return registered ? parseAvroSchema(registered.schema).type : undefined;
  };
}

/** The first resolver that knows the id wins. */
export function firstOf(...resolvers: readonly SchemaResolver[]): SchemaResolver {
  return async (id): Promise<avro.Type | undefined> => {
    for (const resolve of resolvers) {
      const type = await resolve(id);
      if (type) return type;
    }
    return undefined;
  };
}

/** Only our fixed ids (the event schemas of this codebase). */
export const fixedSchemaResolver: SchemaResolver = async (id) => eventSchemaById(id)?.type;
