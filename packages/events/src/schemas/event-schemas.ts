import avro from 'avsc';
import type { TopicNames } from '../topic-names.js';
import { failedMetadataChangeProposalSchema } from './failed-metadata-change-proposal.js';
import { metadataChangeLogSchema } from './metadata-change-log.js';
import { metadataChangeProposalSchema } from './metadata-change-proposal.js';
import { platformEventSchema } from './platform-event.js';
import type { AvroSchemaJson } from './schema-builder.js';
import { dataHubUpgradeHistorySchema } from './upgrade-history.js';

/** Registry ids fixed by the ecosystem (its SchemaIdOrdinal), so ids in the wire format mean the same here. */
export const SchemaIds = Object.freeze({
  metadataChangeProposal: 0,
  failedMetadataChangeProposal: 1,
  metadataChangeLog: 2,
  metadataChangeLogTimeseries: 3,
  platformEvent: 4,
  upgradeHistory: 8,
});

export interface EventSchema {
  /** Schema id in the Confluent wire format and the schema registry. */
  readonly id: number;
  /** Full Avro record name, e.g. com.linkedin.pegasus2avro.mxe.MetadataChangeProposal. */
  readonly name: string;
  /** The topic whose `<topic>-value` subject this schema is registered under. */
  readonly topic: keyof TopicNames;
  /** The schema as JSON text, as the schema registry serves it. */
  readonly schema: string;
  readonly type: avro.Type;
}

function entry(id: number, topic: keyof TopicNames, json: AvroSchemaJson): EventSchema {
  const type = avro.Type.forSchema(json as avro.Schema);
  return Object.freeze({ id, name: type.name ?? '', topic, schema: JSON.stringify(json), type });
}

const mcpEntry = entry(
  SchemaIds.metadataChangeProposal,
  'metadataChangeProposal',
  metadataChangeProposalSchema,
);
const fmcpEntry = entry(
  SchemaIds.failedMetadataChangeProposal,
  'failedMetadataChangeProposal',
  failedMetadataChangeProposalSchema,
);
const mclEntry = entry(SchemaIds.metadataChangeLog, 'metadataChangeLogVersioned', metadataChangeLogSchema);
// Same schema and parsed type as id 2; only the id (and so the subject) differs.
const mclTimeseriesEntry: EventSchema = Object.freeze({
  ...mclEntry,
  id: SchemaIds.metadataChangeLogTimeseries,
  topic: 'metadataChangeLogTimeseries',
});
const platformEventEntry = entry(SchemaIds.platformEvent, 'platformEvent', platformEventSchema);
const upgradeHistoryEntry = entry(SchemaIds.upgradeHistory, 'upgradeHistory', dataHubUpgradeHistorySchema);

/** Every event schema with its fixed id; the schema registry endpoint serves these. */
export const eventSchemas: readonly EventSchema[] = Object.freeze([
  mcpEntry,
  fmcpEntry,
  mclEntry,
  mclTimeseriesEntry,
  platformEventEntry,
  upgradeHistoryEntry,
]);

export const eventSchemaTypes = Object.freeze({
  metadataChangeProposal: mcpEntry.type,
  failedMetadataChangeProposal: fmcpEntry.type,
  metadataChangeLog: mclEntry.type,
  platformEvent: platformEventEntry.type,
  upgradeHistory: upgradeHistoryEntry.type,
});

/** The schema registered under a fixed id, if any. */
export function eventSchemaById(id: number): EventSchema | undefined {
  return eventSchemas.find((s) => s.id === id);
}
