import {
  canRead,
  derivedSchemaId,
  eventSchemas,
  parseAvroSchema,
  SchemaIdCollisionError,
  type EventSchema,
  type ParsedSchema,
  type SchemaRegistrations,
  type TopicNames,
} from '@catalog/events';
import { RegistryError, registryErrors } from './registry-errors.js';

export interface SubjectVersion {
  readonly subject: string;
  readonly version: number;
  readonly id: number;
  readonly schema: string;
  readonly type: EventSchema['type'];
  readonly fingerprint: string;
}

/**
 * What the registry serves: our event schemas under `<topic>-value` with their fixed ids (version 1), then
 * schemas other producers registered, as further versions. A posted schema whose canonical form is ours
 * gets our fixed id; another one is accepted when our reader can read it, under an id derived from its
 * fingerprint, and kept in the registrations so decoders elsewhere find it.
 */
export class RegistryModel {
  private readonly fixed: readonly SubjectVersion[];

  constructor(
    topics: TopicNames,
    private readonly registrations: () => Promise<SchemaRegistrations>,
  ) {
    this.fixed = eventSchemas.map((entry) => ({
      subject: `${topics[entry.topic]}-value`,
      version: 1,
      id: entry.id,
      schema: entry.schema,
      type: entry.type,
      fingerprint: entry.type.fingerprint('sha256').toString('hex'),
    }));
  }

  async subjects(): Promise<string[]> {
    const registered = (await this.registrations()).list().map((r) => r.subject);
    return [...new Set([...this.fixed.map((v) => v.subject), ...registered])];
  }

  async versions(subject: string): Promise<SubjectVersion[]> {
    const versions = this.fixed.filter((v) => v.subject === subject);
    for (const r of (await this.registrations()).list()) {
      if (r.subject !== subject) continue;
      const parsed = parseAvroSchema(r.schema);
      versions.push({ ...r, version: versions.length + 1, type: parsed.type });
    }
    return versions;
  }

  async version(subject: string, version: string): Promise<SubjectVersion> {
    const versions = await this.versions(subject);
    if (versions.length === 0) throw registryErrors.subjectNotFound(subject);
    if (version === 'latest' || version === '-1') return versions[versions.length - 1] as SubjectVersion;
    if (!/^\d+$/.test(version) || Number(version) < 1) throw registryErrors.invalidVersion(version);
    const found = versions.find((v) => v.version === Number(version));
    if (!found) throw registryErrors.versionNotFound(version);
    return found;
  }

  async byId(id: number): Promise<{ schema: string; subjects: { subject: string; version: number }[] }> {
    const fixed = this.fixed.filter((v) => v.id === id);
    if (fixed.length > 0) {
      return { schema: (fixed[0] as SubjectVersion).schema, subjects: fixed.map(subjectOf) };
    }
    // An HTTP lookup answers from what this process knows, without waiting for other writers.
    const registered = await (await this.registrations()).byId(id, 0);
    if (!registered) throw registryErrors.schemaNotFound(`Schema ${id} not found`);
    const versions = await this.versions(registered.subject);
    return { schema: registered.schema, subjects: versions.filter((v) => v.id === id).map(subjectOf) };
  }

  /** Registers `text` under `subject` (idempotent) and returns its id. */
  async register(subject: string, text: string): Promise<number> {
    const posted = parse(text);
    const versions = await this.versions(subject);
    const same = versions.find((v) => v.fingerprint === posted.fingerprint);
    if (same) return same.id;
    const ours = versions.find((v) => this.fixed.includes(v));
    if (ours && !canRead(ours.type, posted.type)) throw registryErrors.incompatible(subject);
    try {
      const registrations = await this.registrations();
      const registered = await registrations.register({
        id: derivedSchemaId(posted.fingerprint),
        subject,
        schema: text,
        fingerprint: posted.fingerprint,
      });
      return registered.id;
    } catch (error) {
      if (error instanceof SchemaIdCollisionError) {
        throw new RegistryError(409, 409, `${error.message}; cannot register this schema`);
      }
      throw error;
    }
  }

  /** The version of `subject` whose schema is `text` (canonical form), if any. */
  async lookup(subject: string, text: string): Promise<SubjectVersion> {
    const posted = parse(text);
    const versions = await this.versions(subject);
    if (versions.length === 0) throw registryErrors.subjectNotFound(subject);
    const found = versions.find((v) => v.fingerprint === posted.fingerprint);
    if (!found) throw registryErrors.schemaNotFound();
    return found;
  }

  /** Whether records written with `text` can be read with that version's schema. */
  async compatible(subject: string, version: string, text: string): Promise<boolean> {
    const posted = parse(text);
    const reader = await this.version(subject, version);
    return canRead(reader.type, posted.type);
  }
}

function parse(text: string): ParsedSchema {
  try {
    return parseAvroSchema(text);
  } catch (error) {
    throw registryErrors.invalidSchema((error as Error).message);
  }
}

function subjectOf(v: SubjectVersion): { subject: string; version: number } {
  return { subject: v.subject, version: v.version };
}
