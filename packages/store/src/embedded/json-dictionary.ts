/**
 * The preset dictionary of the deflated stored JSON of codec 1 (see stored-json.ts): text that aspect values and
 * system metadata commonly contain, which deflate can then refer back to from the first byte of a
 * value. Short values gain the most: a tags or ownership aspect is mostly member names and URN
 * prefixes, which plain deflate cannot shorten because they occur only once in the value.
 *
 * Every value stored with codec 1 needs exactly these bytes to inflate, so this text is frozen: never
 * edit it (a unit test pins its digest). A better dictionary is a new codec number with a new text,
 * and the reader keeps both.
 *
 * Deflate encodes nearer matches in fewer bits, so what nearly every value contains comes last: the
 * system metadata members the stores write on every version 0, then the commonest aspects' members.
 * The rest are members of the ecosystem's common aspects (schema fields, lineage, properties,
 * ownership, tags and terms, browse paths, containers, platform instances, status, subtypes).
 */
export const JSON_DICTIONARY_1 = [
  '{"upstreams":[{"auditStamp":{"time":0,"actor":"urn:li:corpuser:unknown"},"created":{"time":0,',
  '"actor":"urn:li:corpuser:unknown"},"dataset":"urn:li:dataset:(urn:li:dataPlatform:",',
  '"type":"TRANSFORMED"}],"fineGrainedLineages":[{"upstreamType":"FIELD_SET","upstreams":["urn:li:schemaField:(',
  '"downstreamType":"FIELD","downstreams":["urn:li:schemaField:(","confidenceScore":1.0}]}',
  '{"elements":[{"url":"https://","description":"","createStamp":{"time":0,"actor":"urn:li:corpuser:"}}]}',
  '{"domains":["urn:li:domain:"]}{"container":"urn:li:container:"}{"typeNames":["Table","View"]}',
  '{"platform":"urn:li:dataPlatform:","instance":"urn:li:dataPlatformInstance:(urn:li:dataPlatform:"}',
  '{"path":[{"id":"","urn":"urn:li:container:"}]}{"removed":false}{"removed":true}',
  '{"terms":[{"urn":"urn:li:glossaryTerm:"}],"auditStamp":{"time":0,"actor":"urn:li:corpuser:"}}',
  '{"editableSchemaFieldInfo":[{"fieldPath":"","globalTags":{"tags":[]},"glossaryTerms":{"terms":[]}}],',
  '"lastModified":{"time":0,"actor":"urn:li:corpuser:"},"created":{"time":0,"actor":"urn:li:corpuser:"}',
  '{"name":"","qualifiedName":"","description":"","externalUrl":"","uri":"","tags":[],',
  '"customProperties":{},"created":{"time":',
  '"lastModified":{"time":',
  '{"owners":[{"owner":"urn:li:corpuser:","type":"DATAOWNER","typeUrn":"urn:li:ownershipType:__system__',
  'technical_owner","source":{"type":"MANUAL"}}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:',
  '{"owners":[{"owner":"urn:li:corpGroup:","type":"TECHNICAL_OWNER"}]}',
  '{"tags":[{"tag":"urn:li:tag:',
  '{"paths":["/prod/',
  '{"schemaName":"","platform":"urn:li:dataPlatform:","version":0,"created":{"time":0,"actor":"urn:li:corpuser:',
  '"hash":"","platformSchema":{"com.linkedin.schema.MySqlDDL":{"tableSchema":""}},',
  '"platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":""}},"primaryKeys":[],"foreignKeys":[],',
  '"fields":[{"fieldPath":"","jsonPath":"","nullable":true,"description":"","label":"",',
  '"type":{"type":{"com.linkedin.schema.BooleanType":{}}},"nativeDataType":"boolean",',
  '"type":{"type":{"com.linkedin.schema.DateType":{}}},"nativeDataType":"date",',
  '"type":{"type":{"com.linkedin.schema.TimeType":{}}},"nativeDataType":"timestamp",',
  '"type":{"type":{"com.linkedin.schema.ArrayType":{"nestedType":[]}}},"nativeDataType":"array",',
  '"type":{"type":{"com.linkedin.schema.RecordType":{}}},"nativeDataType":"struct",',
  '"recursive":false,"isPartOfKey":false,"isPartitioningKey":false,"globalTags":{"tags":[]},',
  '"nullable":false,"nativeDataType":"integer","type":{"type":{"com.linkedin.schema.NumberType":{}}},',
  '"nativeDataType":"bigint","type":{"type":{"com.linkedin.schema.NumberType":{}}},"description":"',
  '"nativeDataType":"varchar","type":{"type":{"com.linkedin.schema.StringType":{}}},"description":"',
  '},{"fieldPath":"',
  '{"name":"","description":"","customProperties":{},"created":{"time":',
  '{"lastObserved":0,"runId":"no-run-id-provided","lastRunId":"","pipelineName":"","registryName":"",',
  '"registryVersion":"","properties":{"clientId":"acryl-datahub","clientVersion":""},',
  '"version":"1","aspectCreated":{"actor":"urn:li:corpuser:","time":0,"impersonator":"urn:li:corpuser:"},',
  '"version":"2","aspectCreated":{"actor":"urn:li:corpuser:datahub","time":',
  '},"aspectModified":{"actor":"urn:li:corpuser:__datahub_system","time":',
  '},"aspectModified":{"actor":"urn:li:corpuser:datahub","time":',
  '}}',
].join('');

/**
 * The substitutions of stored JSON kept as text (see stored-json.ts), also frozen: a text stored with
 * them reads back only through exactly this table. Each text is replaced by a token of control
 * characters, which a JSON text never holds unescaped, so a text without any reads back as itself:
 * rows written before the table stay readable. The first 27 get one character, the rest two.
 *
 * Applied in this order, and a text before any text it contains, so a longer one is not broken by a
 * shorter one inside it. First the system metadata every version 0 has (the stores' version stamps,
 * the gateway's request origin), then members and URN prefixes of the ecosystem's small common
 * aspects, then the frame of a request record (recorded-result.ts).
 */
export const JSON_SUBSTITUTIONS_1: readonly string[] = [
  '},"aspectModified":{"actor":"urn:li:corpuser:',
  '","aspectCreated":{"actor":"urn:li:corpuser:',
  '{"properties":{"telemetryTraceId":"',
  '","eventSource":"RESTLI","sourceIP":"',
  '"},"lastObserved":',
  '{"lastObserved":',
  ',"version":"',
  ',"runId":"',
  ',"lastRunId":"',
  '","time":',
  '__datahub_system',
  '{"owners":[{"owner":"urn:li:corpuser:',
  '","type":"DATAOWNER"}',
  '{"tags":[{"tag":"urn:li:tag:',
  '"},{"tag":"urn:li:tag:',
  '{"platform":"urn:li:dataPlatform:',
  'urn:li:dataset:(urn:li:dataPlatform:',
  'urn:li:dataPlatform:',
  'urn:li:corpuser:',
  '{"path":[{"id":"',
  '{"paths":["/',
  '"customProperties":{',
  '"created":{"time":',
  '"description":"',
  '"name":"',
  '{"status":"CREATED","urn":"',
  '","systemMetadata":[[',
  // Two-character tokens from here.
  '{"status":"UPDATED","urn":"',
  '{"status":"UNCHANGED","urn":"',
  '{"status":"DELETED","urn":"',
  ',"lastObserved","aspectCreated","aspectModified"]',
  ',"aspectCreated","aspectModified"]',
  ',"current":["',
  ',"previous":["',
  ',"keyCreated":["',
  ',"defaultsCreated":[["',
  '{"terms":[{"urn":"urn:li:glossaryTerm:',
  '{"container":"urn:li:container:',
  '{"typeNames":["',
  '"lastModified":{"time":',
  '"fieldPath":"',
  '"actor":"',
  'urn:li:container:',
  'urn:li:glossaryTerm:',
  'urn:li:tag:',
];
