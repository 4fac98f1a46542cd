import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ValidationError } from '@catalog/model';
import { z } from 'zod';
import type { OwnerInput, ResourceInput } from '../application/label-edits.js';
import { entitySummary, schemaFields } from './entity-summary.js';
import { TOOL_DESCRIPTIONS } from './tool-descriptions.js';
import { jsonResult, type ToolContext } from './tool-context.js';

const EDIT = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
const REMOVE = { ...EDIT, destructiveHint: true } as const;

const urnList = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));
const columnPaths = z.array(z.string().nullable()).nullish();

/** The resources of a label edit: each entity, or the column column_paths names for it. */
function resourcesOf(
  entityUrns: readonly string[],
  paths: readonly (string | null)[] | null | undefined,
): ResourceInput[] {
  if (paths !== null && paths !== undefined && paths.length !== entityUrns.length)
    throw new ValidationError(
      `column_paths must have one entry per entity_urns entry (${entityUrns.length}), got ${paths.length}`,
    );
  return entityUrns.map((resourceUrn, i) => {
    const column = paths?.[i];
    return column === null || column === undefined || column === ''
      ? { resourceUrn }
      : { resourceUrn, subResourceType: 'DATASET_FIELD', subResource: column };
  });
}

const done = (message: string) => jsonResult({ success: true, message });

/** An ownership type as the tool takes it (a type urn or a system type's name) as an owner to add. */
function ownerOf(ownerUrn: string, ownershipType: string): OwnerInput {
  if (ownershipType.startsWith('urn:li:ownershipType:')) return { ownerUrn, ownershipTypeUrn: ownershipType };
  const name = ownershipType.toUpperCase();
  return { ownerUrn, type: name, ownershipTypeUrn: `urn:li:ownershipType:__system__${name.toLowerCase()}` };
}

const NUMBER_TYPE = 'urn:li:dataType:datahub.number';

/**
 * Values as the property's definition types them: numbers for a number property (a model sends "0.95"
 * as readily as 0.95), strings otherwise. An unknown property is left for the application to refuse.
 */
async function typedValues(t: ToolContext, propertyUrn: string, values: readonly (string | number)[]) {
  const [definition] = await t.app.entities.latest(t.ctx, propertyUrn, ['propertyDefinition']);
  const numeric = definition?.value['valueType'] === NUMBER_TYPE;
  return values.map((v) => {
    if (!numeric) return { stringValue: String(v) };
    const number = typeof v === 'number' ? v : Number(v);
    if (!Number.isFinite(number) || (typeof v === 'string' && v.trim() === ''))
      throw new ValidationError(`${propertyUrn} takes numbers, got ${JSON.stringify(v)}`);
    return { numberValue: number };
  });
}

/** The edits, registered only when TOOLS_IS_MUTATION_ENABLED; each is decided by the application as the actor. */
export function registerEditTools(server: McpServer, t: ToolContext): void {
  for (const [name, kind, add] of [
    ['add_tags', 'tag', true],
    ['remove_tags', 'tag', false],
    ['add_terms', 'term', true],
    ['remove_terms', 'term', false],
  ] as const) {
    const urnsName = kind === 'tag' ? 'tag_urns' : 'term_urns';
    server.registerTool(
      name,
      {
        description: TOOL_DESCRIPTIONS[name],
        inputSchema: { [urnsName]: urnList, entity_urns: urnList, column_paths: columnPaths },
        annotations: add ? EDIT : REMOVE,
      },
      async (args: Record<string, unknown>) => {
        const labels = args[urnsName] as string[];
        const entities = args['entity_urns'] as string[];
        const resources = resourcesOf(entities, args['column_paths'] as (string | null)[] | undefined);
        if (kind === 'tag') await t.app.labels.changeTags(t.ctx, add, labels, resources);
        else await t.app.labels.changeTerms(t.ctx, add, labels, resources);
        const what = kind === 'tag' ? 'tag(s)' : 'glossary term(s)';
        return done(
          `${add ? 'Added' : 'Removed'} ${labels.length} ${what} ${add ? 'to' : 'from'} ${entities.length} entit(ies)`,
        );
      },
    );
  }

  server.registerTool(
    'add_owners',
    {
      description: TOOL_DESCRIPTIONS.add_owners,
      inputSchema: {
        owner_urns: urnList,
        entity_urns: urnList,
        ownership_type: z.string().default('TECHNICAL_OWNER'),
      },
      annotations: EDIT,
    },
    async (args) => {
      const owners = args.owner_urns.map((o) => ownerOf(o, args.ownership_type));
      await t.app.labels.addOwners(t.ctx, owners, resourcesOf(args.entity_urns, null));
      return done(`Added ${owners.length} owner(s) to ${args.entity_urns.length} entit(ies)`);
    },
  );
  server.registerTool(
    'remove_owners',
    {
      description: TOOL_DESCRIPTIONS.remove_owners,
      inputSchema: { owner_urns: urnList, entity_urns: urnList, ownership_type: z.string().nullish() },
      annotations: REMOVE,
    },
    async (args) => {
      const typeUrn = args.ownership_type ? ownerOf('', args.ownership_type).ownershipTypeUrn : null;
      await t.app.labels.removeOwners(t.ctx, args.owner_urns, resourcesOf(args.entity_urns, null), typeUrn);
      return done(`Removed ${args.owner_urns.length} owner(s) from ${args.entity_urns.length} entit(ies)`);
    },
  );

  server.registerTool(
    'set_domains',
    {
      description: TOOL_DESCRIPTIONS.set_domains,
      inputSchema: { domain_urn: z.string(), entity_urns: urnList },
      annotations: EDIT,
    },
    async (args) => {
      for (const urn of args.entity_urns) await t.app.metadataEdits.setDomain(t.ctx, urn, args.domain_urn);
      return done(`Set domain ${args.domain_urn} on ${args.entity_urns.length} entit(ies)`);
    },
  );
  server.registerTool(
    'remove_domains',
    {
      description: TOOL_DESCRIPTIONS.remove_domains,
      inputSchema: { entity_urns: urnList },
      annotations: REMOVE,
    },
    async (args) => {
      for (const urn of args.entity_urns) await t.app.metadataEdits.setDomain(t.ctx, urn, null);
      return done(`Removed the domain of ${args.entity_urns.length} entit(ies)`);
    },
  );

  server.registerTool(
    'update_description',
    {
      description: TOOL_DESCRIPTIONS.update_description,
      inputSchema: {
        entity_urn: z.string(),
        operation: z.enum(['replace', 'append', 'remove']).default('replace'),
        description: z.string().nullish(),
        column_path: z.string().nullish(),
      },
      annotations: EDIT,
    },
    async (args) => {
      if (args.operation !== 'remove' && (args.description ?? '') === '')
        throw new ValidationError(`operation ${args.operation} needs a description`);
      let text = args.operation === 'remove' ? '' : args.description!;
      if (args.operation === 'append') {
        const aspects = await t.app.entities.latest(t.ctx, args.entity_urn);
        const current = args.column_path
          ? schemaFields(aspects).find((f) => f.fieldPath === args.column_path)?.description
          : (entitySummary(args.entity_urn, aspects)['description'] as string | undefined);
        if (current) text = `${current}\n\n${text}`;
      }
      await t.app.metadataEdits.updateDescription(t.ctx, {
        description: text,
        resourceUrn: args.entity_urn,
        ...(args.column_path ? { subResourceType: 'DATASET_FIELD', subResource: args.column_path } : {}),
      });
      return done(
        `Description ${args.operation === 'remove' ? 'removed' : 'updated'} on ${args.column_path ? `column ${args.column_path} of ` : ''}${args.entity_urn}`,
      );
    },
  );

  server.registerTool(
    'add_structured_properties',
    {
      description: TOOL_DESCRIPTIONS.add_structured_properties,
      inputSchema: {
        property_values: z.record(z.string(), z.array(z.union([z.string(), z.number()]))),
        entity_urns: urnList,
      },
      annotations: EDIT,
    },
    async (args) => {
      const params = await Promise.all(
        Object.entries(args.property_values).map(async ([structuredPropertyUrn, values]) => ({
          structuredPropertyUrn,
          values: await typedValues(t, structuredPropertyUrn, values),
        })),
      );
      for (const assetUrn of args.entity_urns)
        await t.app.structuredProperties.upsertValues(t.ctx, {
          assetUrn,
          structuredPropertyInputParams: params,
        });
      return done(`Added ${params.length} structured propert(ies) to ${args.entity_urns.length} entit(ies)`);
    },
  );
  server.registerTool(
    'remove_structured_properties',
    {
      description: TOOL_DESCRIPTIONS.remove_structured_properties,
      inputSchema: { property_urns: urnList, entity_urns: urnList },
      annotations: REMOVE,
    },
    async (args) => {
      for (const assetUrn of args.entity_urns)
        await t.app.structuredProperties.removeValues(t.ctx, {
          assetUrn,
          structuredPropertyUrns: args.property_urns,
        });
      return done(
        `Removed ${args.property_urns.length} structured propert(ies) from ${args.entity_urns.length} entit(ies)`,
      );
    },
  );
}
