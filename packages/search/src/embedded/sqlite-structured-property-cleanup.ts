import type Database from 'better-sqlite3';
import type {
  LeftoverStructuredProperty,
  StructuredPropertyMappingCleanup,
  StructuredPropertyMappingCleanupOptions,
} from '../port.js';
import {
  claimedFields,
  cleanupOutcome,
  keptFieldsOf,
  leftoversOf,
  removableFields,
  type UnclaimedStructuredFields,
} from '../structured-property-leftovers.js';
import type { SqliteStructuredProperties } from './sqlite-structured-properties.js';
import type { SqliteStructuredPropertyMappings } from './sqlite-structured-property-mappings.js';
import { writeTransaction } from './write-transaction.js';

/**
 * Leftovers and cleanup of structured property mappings on the embedded adapter, over the mapping
 * bookkeeping (SqliteStructuredPropertyMappings): a field counts as mapped in an entity index until the
 * cleanup removes it, and the documents holding a value in it are counted from their keyed values.
 */
export class SqliteStructuredPropertyCleanup {
  private readonly cleanupInTransaction: (keep: ReadonlySet<string>) => StructuredPropertyMappingCleanup;

  constructor(
    db: Database.Database,
    private readonly definitions: SqliteStructuredProperties,
    private readonly mappings: SqliteStructuredPropertyMappings,
  ) {
    this.cleanupInTransaction = writeTransaction(db, (keep: ReadonlySet<string>) => this.cleanupNow(keep));
  }

  leftovers(): LeftoverStructuredProperty[] {
    return leftoversOf(this.definitions.retired(), this.unclaimed());
  }

  /**
   * One transaction: no write interleaves, so a value written meanwhile is either counted (and its
   * mapping kept) or written after the mapping went (the writer keys it anyway; a definition put for it
   * maps it again).
   */
  cleanup(options: StructuredPropertyMappingCleanupOptions = {}): StructuredPropertyMappingCleanup {
    return this.cleanupInTransaction(new Set(options.keep ?? []));
  }

  private cleanupNow(keep: ReadonlySet<string>): StructuredPropertyMappingCleanup {
    const unclaimed = this.unclaimed();
    const kept = keptFieldsOf(this.definitions.retired(), keep, unclaimed);
    const removedFields: Record<string, string[]> = {};
    for (const index of unclaimed) {
      const removable = removableFields(index, kept);
      if (removable.length === 0) continue;
      this.mappings.unmap(index.entityType, removable);
      removedFields[index.entityType] = removable;
    }
    const outcome = cleanupOutcome(removedFields, this.leftovers(), keep);
    this.definitions.forget(outcome.forgotten);
    return outcome;
  }

  /** Per entity index, the mapped fields no definition of the view claims, with their value counts. */
  private unclaimed(): UnclaimedStructuredFields[] {
    const claimed = claimedFields(this.definitions.all());
    const out: UnclaimedStructuredFields[] = [];
    for (const [entityType, fields] of this.mappings.byEntityType()) {
      const counts = new Map<string, number>();
      for (const field of fields) {
        if (!claimed.has(field)) counts.set(field, this.mappings.valueCount(entityType, field));
      }
      if (counts.size > 0) out.push({ entityType, counts });
    }
    return out;
  }
}
