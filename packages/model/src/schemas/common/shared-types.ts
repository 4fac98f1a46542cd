import {
  arrayOf,
  enumOf,
  mapOf,
  opt,
  record,
  req,
  URN,
  type AvroSchema,
  type RecordSchema,
} from '../avro-schema.js';

export const GLOBAL_TAGS: RecordSchema = record('com.linkedin.common.GlobalTags', [
  req(
    'tags',
    arrayOf(
      record('com.linkedin.common.TagAssociation', [
        req('tag', URN),
        opt('context', 'string'),
        opt('attribution', 'com.linkedin.common.MetadataAttribution'),
      ]),
    ),
  ),
]);

export const GLOSSARY_TERMS: RecordSchema = record('com.linkedin.common.GlossaryTerms', [
  req(
    'terms',
    arrayOf(
      record('com.linkedin.common.GlossaryTermAssociation', [
        req('urn', URN),
        opt('actor', URN),
        opt('context', 'string'),
        opt('attribution', 'com.linkedin.common.MetadataAttribution'),
      ]),
    ),
  ),
  req('auditStamp', 'com.linkedin.common.AuditStamp'),
]);

/**
 * Named records and enums that several aspects share. They are parsed first, so every later schema
 * refers to them by fully qualified name and each exists once in the shared registry.
 */
export const SHARED_TYPES: readonly AvroSchema[] = [
  record(
    'com.linkedin.common.AuditStamp',
    [req('time', 'long'), req('actor', URN), opt('impersonator', URN), opt('message', 'string')],
    'Who made a change and when (ms since the epoch).',
  ),
  record('com.linkedin.common.TimeStamp', [req('time', 'long'), opt('actor', URN)]),
  record('com.linkedin.common.ChangeAuditStamps', [
    req('created', 'com.linkedin.common.AuditStamp', { time: 0, actor: 'urn:li:corpuser:unknown' }),
    req('lastModified', 'com.linkedin.common.AuditStamp', { time: 0, actor: 'urn:li:corpuser:unknown' }),
    opt('deleted', 'com.linkedin.common.AuditStamp'),
  ]),
  record('com.linkedin.common.MetadataAttribution', [
    req('time', 'long'),
    req('actor', URN),
    opt('source', URN),
    req('sourceDetail', mapOf('string'), {}),
  ]),
  record('com.linkedin.common.Edge', [
    opt('sourceUrn', URN),
    req('destinationUrn', URN),
    opt('created', 'com.linkedin.common.AuditStamp'),
    opt('lastModified', 'com.linkedin.common.AuditStamp'),
    opt('properties', mapOf('string')),
  ]),
  enumOf('com.linkedin.common.FabricType', [
    'DEV',
    'TEST',
    'QA',
    'UAT',
    'EI',
    'PRE',
    'STG',
    'NON_PROD',
    'PROD',
    'CORP',
    'RVW',
    'PRD',
    'TST',
    'SIT',
    'SBX',
    'SANDBOX',
  ]),
  enumOf('com.linkedin.common.AccessLevel', ['PUBLIC', 'PRIVATE']),
  enumOf('com.linkedin.timeseries.CalendarInterval', [
    'SECOND',
    'MINUTE',
    'HOUR',
    'DAY',
    'WEEK',
    'MONTH',
    'QUARTER',
    'YEAR',
  ]),
  record('com.linkedin.timeseries.TimeWindowSize', [
    req('unit', 'com.linkedin.timeseries.CalendarInterval'),
    req('multiple', 'int', 1),
  ]),
  record('com.linkedin.timeseries.PartitionSpec', [
    req(
      'type',
      enumOf('com.linkedin.timeseries.PartitionType', ['FULL_TABLE', 'QUERY', 'PARTITION']),
      'PARTITION',
    ),
    req('partition', 'string'),
    opt(
      'timePartition',
      record('com.linkedin.timeseries.TimeWindow', [
        req('startTimeMillis', 'long'),
        req('length', 'com.linkedin.timeseries.TimeWindowSize'),
      ]),
    ),
  ]),
  // Shared by schema fields and the globalTags / glossaryTerms aspects.
  GLOBAL_TAGS,
  GLOSSARY_TERMS,
  // Shared by upstreamLineage and dataJobInputOutput.
  record('com.linkedin.dataset.FineGrainedLineage', [
    req(
      'upstreamType',
      enumOf('com.linkedin.dataset.FineGrainedLineageUpstreamType', ['FIELD_SET', 'DATASET', 'NONE']),
    ),
    opt('upstreams', arrayOf(URN)),
    req(
      'downstreamType',
      enumOf('com.linkedin.dataset.FineGrainedLineageDownstreamType', ['FIELD', 'FIELD_SET']),
    ),
    opt('downstreams', arrayOf(URN)),
    opt('transformOperation', 'string'),
    req('confidenceScore', 'float', 1.0),
    opt('query', URN),
  ]),
  // A structured property value: `{"string": ...}` or `{"double": ...}` on the wire.
  record('com.linkedin.structured.PropertyValue', [
    req('value', ['string', 'double']),
    opt('description', 'string'),
  ]),
];
