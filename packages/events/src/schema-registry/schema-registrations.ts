/** A schema registered under a subject by another producer (not one of our fixed-id event schemas). */
export interface RegisteredSchema {
  readonly id: number;
  readonly subject: string;
  /** The schema JSON text as registered. */
  readonly schema: string;
  /** SHA-256 of its canonical form, hex. */
  readonly fingerprint: string;
}

/**
 * Where the schema registry keeps schemas it did not define. The gateway registers; every process that
 * decodes records reads them back by id.
 */
export interface SchemaRegistrations {
  /** Everything registered so far that this process has seen, in registration order. */
  list(): readonly RegisteredSchema[];
  /**
   * The schema with that id. An id not seen yet may be a registration another process just made: this
   * waits up to `waitMs` (the implementation's default when absent) for it to arrive.
   */
  byId(id: number, waitMs?: number): Promise<RegisteredSchema | undefined>;
  /** Registers (idempotently) and returns the registration; its id derives from the fingerprint. */
  register(registration: RegisteredSchema): Promise<RegisteredSchema>;
  close(): Promise<void>;
}

/** Thrown when a derived id is already taken by a different schema (a fingerprint prefix collision). */
export class SchemaIdCollisionError extends Error {
  constructor(readonly id: number) {
    super(`schema id ${id} is already registered for a different schema`);
    this.name = 'SchemaIdCollisionError';
  }
}

/** Registrations of one process only: enough for tests and the all-in-one catalog. */
export class InMemorySchemaRegistrations implements SchemaRegistrations {
  private readonly registered: RegisteredSchema[] = [];

  list(): readonly RegisteredSchema[] {
    return this.registered;
  }

  async byId(id: number, _waitMs?: number): Promise<RegisteredSchema | undefined> {
    return this.registered.find((r) => r.id === id);
  }

  async register(registration: RegisteredSchema): Promise<RegisteredSchema> {
    return addRegistration(this.registered, registration);
  }

  async close(): Promise<void> {}
}

/**
 * Adds a registration unless the same schema is already registered under that subject; a schema already
 * known under another subject keeps its id (as in Confluent's registry).
 */
export function addRegistration(
  registered: RegisteredSchema[],
  registration: RegisteredSchema,
): RegisteredSchema {
  const sameId = registered.find((r) => r.id === registration.id);
  if (sameId && sameId.fingerprint !== registration.fingerprint)
    throw new SchemaIdCollisionError(registration.id);
  const existing = registered.find(
    (r) => r.subject === registration.subject && r.fingerprint === registration.fingerprint,
  );
  if (existing) return existing;
  registered.push(registration);
  return registration;
}
