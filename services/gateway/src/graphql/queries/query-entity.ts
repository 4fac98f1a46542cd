import { entityRegistry, parseUrn } from '@catalog/model';
import type { GraphQLContext } from '../context.js';
import { auditStamp, customProperties, str } from '../entities/aspect-views.js';
import { refOf, type EntityRef } from '../entities/entity-ref.js';

/** A query's properties and subjects (the ecosystem's entity.graphql QueryEntity part). */
export const queryEntitySchema = `
type ResolvedAuditStamp { time: Long! actor: CorpUser }

enum QueryLanguage { SQL }
enum QuerySource { MANUAL SYSTEM }

type QueryStatement { value: String! language: QueryLanguage! }

type QueryProperties {
  statement: QueryStatement!
  source: QuerySource!
  name: String
  description: String
  created: AuditStamp!
  createdOn: ResolvedAuditStamp!
  lastModified: AuditStamp!
  origin: Entity
  customProperties: [CustomPropertiesEntry!]
}

type QuerySubject { dataset: Dataset! schemaField: SchemaFieldEntity }

extend type QueryEntity {
  properties: QueryProperties
  subjects: [QuerySubject!]
  platform: DataPlatform
}
`;

type Json = Readonly<Record<string, unknown>>;

const aspectOf = (ctx: GraphQLContext, ref: EntityRef, name: string) =>
  ctx.entities.aspect<Json>(ref.urn, name);

/**
 * The subject as the ecosystem maps it: a dataset, or a schema field with its dataset; any other entity
 * is a subject without a dataset (left out: `dataset` is non-null).
 */
function subjectOf(entity: unknown): { dataset: EntityRef; schemaField: EntityRef | null } | undefined {
  const ref = refOf(entity);
  if (ref === undefined) return undefined;
  if (ref.entity === 'dataset') return { dataset: ref, schemaField: null };
  if (ref.entity !== 'schemaField') return undefined;
  const parent = refOf(entityRegistry.keyAspectFromUrn(parseUrn(ref.urn)).value['parent']);
  return parent?.entity === 'dataset' ? { dataset: parent, schemaField: ref } : undefined;
}

export function queryEntityResolvers(): Record<string, Record<string, unknown>> {
  return {
    QueryEntity: {
      properties: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await aspectOf(ctx, ref, 'queryProperties');
        if (value === undefined) return null;
        const statement = (value['statement'] ?? {}) as Json;
        const created = (value['created'] ?? {}) as Json;
        return {
          statement: { value: str(statement['value']) ?? '', language: str(statement['language']) ?? 'SQL' },
          source: str(value['source']),
          name: str(value['name']),
          description: str(value['description']),
          created: auditStamp(created),
          createdOn: { time: auditStamp(created).time, actor: refOf(created['actor']) ?? null },
          lastModified: auditStamp(value['lastModified']),
          origin: refOf(value['origin']) ?? null,
          customProperties: customProperties(value['customProperties'], ref),
        };
      },
      subjects: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) => {
        const value = await aspectOf(ctx, ref, 'querySubjects');
        if (value === undefined) return null;
        const subjects = Array.isArray(value['subjects']) ? (value['subjects'] as Json[]) : [];
        return subjects.flatMap((s) => subjectOf(s?.['entity']) ?? []);
      },
      platform: async (ref: EntityRef, _a: unknown, ctx: GraphQLContext) =>
        refOf((await aspectOf(ctx, ref, 'dataPlatformInstance'))?.['platform']) ?? null,
    },
  };
}
