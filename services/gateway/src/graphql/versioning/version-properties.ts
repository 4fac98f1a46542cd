import type { GraphQLContext } from '../context.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';

/**
 * An entity's version (versioning.graphql's VersionProperties), read from its `versionProperties`
 * aspect: the set it is a version of, its label and aliases, whether it is the set's latest, and when
 * it was linked (and created in its source). Datasets and ML models have versions.
 */
export const versionPropertiesSchema = `
type VersionProperties {
  versionSet: VersionSet!
  version: VersionTag!
  aliases: [VersionTag!]!
  comment: String
  isLatest: Boolean!
  created: ResolvedAuditStamp
  createdInSource: ResolvedAuditStamp
}

interface SupportsVersions { versionProperties: VersionProperties }

extend type Dataset implements SupportsVersions { versionProperties: VersionProperties }
extend type MLModel implements SupportsVersions { versionProperties: VersionProperties }
`;

type Json = Readonly<Record<string, unknown>>;

const tagOf = (value: unknown) => {
  const tag = (value as Json | null | undefined)?.['versionTag'];
  return { versionTag: typeof tag === 'string' ? tag : null };
};

/** A stored AuditStamp as a ResolvedAuditStamp: its time, its actor as the user it names. */
function stampOf(value: unknown) {
  const stamp = value as Json | null | undefined;
  if (typeof stamp?.['time'] !== 'number') return null;
  const actor = refOf(stamp['actor']);
  return { time: stamp['time'], actor: actor?.entity === 'corpuser' ? actor : null };
}

const versionProperties = async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
  const value = await ctx.entities.aspect<Json>(ref.urn, 'versionProperties');
  const versionSet = refOf(value?.['versionSet']);
  if (value === undefined || versionSet === undefined) return null;
  const aliases = Array.isArray(value['aliases']) ? value['aliases'] : [];
  return {
    versionSet,
    version: tagOf(value['version']),
    aliases: aliases.map(tagOf),
    comment: typeof value['comment'] === 'string' ? value['comment'] : null,
    isLatest: value['isLatest'] === true,
    created: stampOf(value['metadataCreatedTimestamp']),
    createdInSource: stampOf(value['sourceCreatedTimestamp']),
  };
};

export function versionPropertiesResolvers(): Record<string, Record<string, unknown>> {
  return {
    SupportsVersions: {
      __resolveType: (ref: EntityRef) => (ref.entity === 'mlModel' ? 'MLModel' : 'Dataset'),
    },
    Dataset: { versionProperties },
    MLModel: { versionProperties },
  };
}
