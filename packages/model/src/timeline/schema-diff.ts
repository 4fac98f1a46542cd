import type { ChangeAuditStamp, ChangeCategory, ChangeEvent, ChangeOperation } from './change-event.js';
import { canonical, compareJava, record, records, text, texts, type Json } from './aspect-values.js';
import {
  asFieldDocumentationEvent,
  asFieldLabelEvent,
  glossaryTermChanges,
  tagChanges,
} from './label-diffs.js';
import { downgradeFieldPath, fieldPathOf, schemaFieldUrn, sortByFieldPath } from './schema-fields.js';

const INCOMPATIBLE = 'A backwards incompatible change due to';
const COMPATIBLE = 'A forwards & backwards compatible change due to ';

interface SchemaDiffContext {
  readonly datasetUrn: string;
  readonly categories: ReadonlySet<ChangeCategory>;
  readonly auditStamp: ChangeAuditStamp | undefined;
  readonly events: ChangeEvent[];
}

/**
 * Changes between two schemaMetadata values, fields aligned by path: an added field is a MINOR
 * TECHNICAL_SCHEMA change, a removed one or a native type change MAJOR, a rename (same type, parent and
 * description under another path) MINOR; a field's description, tags and terms give DOCUMENTATION, TAG
 * and GLOSSARY_TERM events; primary key changes are MAJOR. Only events of `categories` are produced.
 */
export function schemaMetadataChanges(
  base: Json | undefined,
  target: Json | undefined,
  datasetUrn: string,
  categories: ReadonlySet<ChangeCategory>,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  const context: SchemaDiffContext = { datasetUrn, categories, auditStamp, events: [] };
  const baseFields = sortByFieldPath(records(base?.['fields']));
  const targetFields = sortByFieldPath(records(target?.['fields']));
  const moved = movedFieldGroups(baseFields, targetFields);
  const renamed = new Set<Json>();
  const processed = new Set<Json>();
  const sets: FieldSets = { moved, renamed, processed };
  let b = 0;
  let t = 0;
  while (b < baseFields.length && t < targetFields.length) {
    const baseField = baseFields[b] as Json;
    const targetField = targetFields[t] as Json;
    const cmp = compareJava(fieldPathOf(baseField), fieldPathOf(targetField));
    if (renamed.has(baseField) || processed.has(baseField)) b++;
    else if (renamed.has(targetField) || processed.has(targetField)) t++;
    else if (cmp === 0) {
      if (nativeType(baseField) !== nativeType(targetField))
        typeChange(context, baseField, targetField, nativeType(baseField), nativeType(targetField));
      fieldPropertyChanges(context, baseField, targetField);
      b++;
      t++;
    } else if (cmp < 0) {
      unmatchedField(context, 'base', baseField, () => [baseFields.slice(b), targetFields.slice(t)], sets);
      b++;
    } else {
      unmatchedField(
        context,
        'target',
        targetField,
        () => [targetFields.slice(t), baseFields.slice(b)],
        sets,
      );
      t++;
    }
  }
  for (; b < baseFields.length; b++) {
    const field = baseFields[b] as Json;
    if (!renamed.has(field) && !processed.has(field)) removal(context, field);
  }
  for (; t < targetFields.length; t++) {
    const field = targetFields[t] as Json;
    if (!renamed.has(field) && !processed.has(field)) addition(context, field);
  }
  primaryKeyChanges(context, base, target);
  return context.events;
}

/** The alignment's bookkeeping: moved groups, fields taken by a rename, fields already reported. */
interface FieldSets {
  readonly moved: ReadonlyMap<Json, MovedGroup>;
  readonly renamed: Set<Json>;
  readonly processed: Set<Json>;
}

/**
 * A field of one side (`base` or `target`) with no field of that path on the other: part of a moved
 * group, a rename of a field the other side has further on (`rest`: this side's fields from it on, then
 * the other side's from the current position), or else removed (base) or added (target).
 */
function unmatchedField(
  context: SchemaDiffContext,
  side: 'base' | 'target',
  field: Json,
  rest: () => [Json[], Json[]],
  { moved, renamed, processed }: FieldSets,
): void {
  const group = moved.get(field);
  if (group !== undefined) {
    movedFieldChanges(context, group);
    group.fields.forEach((f) => processed.add(f));
    return;
  }
  const [own, other] = rest();
  const rename = findRenamed(field, own, other, renamed, moved);
  if (rename === undefined) {
    if (side === 'base') removal(context, field);
    else addition(context, field);
    return;
  }
  const [before, after] = side === 'base' ? [field, rename] : [rename, field];
  renameEvent(context, before, after);
  fieldPropertyChanges(context, before, after);
  renamed.add(rename);
}

const nativeType = (field: Json) => text(field['nativeDataType']) ?? '';
const nullable = (field: Json) => field['nullable'] === true;

function fieldEvent(
  context: SchemaDiffContext,
  field: Json,
  operation: ChangeOperation,
  semVerChange: 'MINOR' | 'MAJOR',
  description: string,
  modificationCategory: 'OTHER' | 'TYPE_CHANGE' | 'RENAME',
): ChangeEvent {
  const path = fieldPathOf(field);
  const fieldUrn = schemaFieldUrn(context.datasetUrn, path);
  return {
    entityUrn: context.datasetUrn,
    category: 'TECHNICAL_SCHEMA',
    operation,
    modifier: fieldUrn,
    parameters: { fieldPath: path, fieldUrn, nullable: nullable(field), modificationCategory },
    semVerChange,
    description,
    ...(context.auditStamp ? { auditStamp: context.auditStamp } : {}),
  };
}

function removal(context: SchemaDiffContext, field: Json): void {
  if (context.categories.has('TECHNICAL_SCHEMA'))
    context.events.push(
      fieldEvent(
        context,
        field,
        'REMOVE',
        'MAJOR',
        `${INCOMPATIBLE} removal of field: '${downgradeFieldPath(fieldPathOf(field))}'.`,
        'OTHER',
      ),
    );
  fieldPropertyChanges(context, field, undefined);
}

function addition(context: SchemaDiffContext, field: Json): void {
  if (context.categories.has('TECHNICAL_SCHEMA'))
    context.events.push(
      fieldEvent(
        context,
        field,
        'ADD',
        'MINOR',
        `${COMPATIBLE}the newly added field '${downgradeFieldPath(fieldPathOf(field))}'.`,
        'OTHER',
      ),
    );
  fieldPropertyChanges(context, undefined, field);
}

function typeChange(context: SchemaDiffContext, base: Json, target: Json, from: string, to: string): void {
  if (!context.categories.has('TECHNICAL_SCHEMA')) return;
  context.events.push(
    fieldEvent(
      context,
      base,
      'MODIFY',
      'MAJOR',
      `${INCOMPATIBLE} native datatype of the field '${downgradeFieldPath(fieldPathOf(target))}' changed from '${from}' to '${to}'.`,
      'TYPE_CHANGE',
    ),
  );
}

function renameEvent(context: SchemaDiffContext, base: Json, target: Json): void {
  if (!context.categories.has('TECHNICAL_SCHEMA')) return;
  context.events.push(
    fieldEvent(
      context,
      base,
      'MODIFY',
      'MINOR',
      `${COMPATIBLE}renaming of the field '${downgradeFieldPath(fieldPathOf(base))} to ${downgradeFieldPath(fieldPathOf(target))}'.`,
      'RENAME',
    ),
  );
}

/** A field's description, tags and terms between two versions of it (either may be absent). */
function fieldPropertyChanges(
  context: SchemaDiffContext,
  base: Json | undefined,
  target: Json | undefined,
): void {
  const field = (target ?? base) as Json;
  const path = fieldPathOf(field);
  const fieldUrn = schemaFieldUrn(context.datasetUrn, path);
  const stamp = context.auditStamp;
  if (context.categories.has('DOCUMENTATION')) {
    const event = fieldDescriptionChange(base, target, fieldUrn, stamp);
    if (event !== undefined) context.events.push(asFieldDocumentationEvent(event, path, context.datasetUrn));
  }
  if (context.categories.has('TAG'))
    for (const event of tagChanges(
      record(base?.['globalTags']),
      record(target?.['globalTags']),
      fieldUrn,
      stamp,
    ))
      context.events.push(asFieldLabelEvent(event, path, context.datasetUrn));
  if (context.categories.has('GLOSSARY_TERM'))
    for (const event of glossaryTermChanges(
      record(base?.['glossaryTerms']),
      record(target?.['glossaryTerms']),
      fieldUrn,
      stamp,
    ))
      context.events.push(asFieldLabelEvent(event, path, context.datasetUrn));
}

function fieldDescriptionChange(
  base: Json | undefined,
  target: Json | undefined,
  fieldUrn: string,
  auditStamp: ChangeAuditStamp | undefined,
): ChangeEvent | undefined {
  const from = text(base?.['description']);
  const to = text(target?.['description']);
  const common = {
    entityUrn: fieldUrn,
    category: 'DOCUMENTATION' as const,
    ...(auditStamp ? { auditStamp } : {}),
  };
  if (from === undefined && to !== undefined)
    return {
      ...common,
      operation: 'ADD',
      semVerChange: 'MINOR',
      description: `The description '${to}' for the field '${fieldPathOf(target as Json)}' has been added.`,
      parameters: { description: to },
    };
  if (from !== undefined && to === undefined)
    return {
      ...common,
      operation: 'REMOVE',
      semVerChange: 'MINOR',
      description: `The description '${from}' for the field '${fieldPathOf(base as Json)}' has been removed.`,
      parameters: { description: from },
    };
  if (from !== undefined && to !== undefined && from !== to)
    return {
      ...common,
      operation: 'MODIFY',
      semVerChange: 'PATCH',
      description: `The description for the field '${fieldPathOf(base as Json)}' has been changed from '${from}' to '${to}'.`,
      parameters: { description: to, previousDescription: from },
    };
  return undefined;
}

/** The first field on the other side that looks like `field` renamed, not claimed yet. */
function findRenamed(
  field: Json,
  sameSide: readonly Json[],
  otherSide: readonly Json[],
  renamed: ReadonlySet<Json>,
  moved: ReadonlyMap<Json, MovedGroup>,
): Json | undefined {
  const sameSideValues = new Set(sameSide.map(canonical));
  return otherSide.find(
    (candidate) =>
      isRenamed(field, candidate) &&
      !renamed.has(candidate) &&
      !moved.has(candidate) &&
      !sameSideValues.has(canonical(candidate)),
  );
}

function isRenamed(a: Json, b: Json): boolean {
  const parent = parentPath(a);
  return (
    nativeType(a) === nativeType(b) &&
    parent !== undefined &&
    parent === parentPath(b) &&
    text(a['description']) === text(b['description'])
  );
}

/** The path above the field (`''` for a top-level one); undefined for a path starting with a dot. */
function parentPath(field: Json): string | undefined {
  const path = fieldPathOf(field);
  const i = path.lastIndexOf('.');
  return i > 0 ? path.slice(0, i) : i < 0 ? '' : undefined;
}

/** Fields of a column whose v2 path moved between versions (its type is part of the path). */
interface MovedGroup {
  readonly base: readonly Json[];
  readonly target: readonly Json[];
  readonly fields: readonly Json[];
  readonly hasStableField: boolean;
}

function movedFieldGroups(baseFields: readonly Json[], targetFields: readonly Json[]): Map<Json, MovedGroup> {
  const basePaths = new Set(baseFields.map(fieldPathOf));
  const targetPaths = new Set(targetFields.map(fieldPathOf));
  const group = (fields: readonly Json[], otherPaths: ReadonlySet<string>) => {
    const byLogical = new Map<string, Json[]>();
    for (const field of fields) {
      if (otherPaths.has(fieldPathOf(field))) continue;
      const logical = downgradeFieldPath(fieldPathOf(field));
      byLogical.set(logical, [...(byLogical.get(logical) ?? []), field]);
    }
    return byLogical;
  };
  const baseByLogical = group(baseFields, targetPaths);
  const targetByLogical = group(targetFields, basePaths);
  const stable = new Set(
    baseFields.filter((f) => targetPaths.has(fieldPathOf(f))).map((f) => downgradeFieldPath(fieldPathOf(f))),
  );
  const groups = new Map<Json, MovedGroup>();
  for (const [logical, base] of baseByLogical) {
    const target = targetByLogical.get(logical);
    if (target === undefined) continue;
    const movedGroup: MovedGroup = {
      base: columnFirst(base),
      target: columnFirst(target),
      fields: [...base, ...target],
      hasStableField: stable.has(logical),
    };
    for (const field of movedGroup.fields) groups.set(field, movedGroup);
  }
  return groups;
}

/** The least nested path first (the column itself rather than a type branch), then by path. */
function columnFirst(fields: readonly Json[]): Json[] {
  const depth = (f: Json) => fieldPathOf(f).split('.').length;
  return [...fields].sort((a, b) => depth(a) - depth(b) || compareJava(fieldPathOf(a), fieldPathOf(b)));
}

const nativeTypes = (fields: readonly Json[]) =>
  [...new Set(fields.map(nativeType))].sort(compareJava).join(', ');

function movedFieldChanges(context: SchemaDiffContext, group: MovedGroup): void {
  const base = group.base[0] as Json;
  const target = group.target[0] as Json;
  const from = nativeTypes(group.base);
  const to = nativeTypes(group.target);
  if (from !== to) typeChange(context, base, target, from, to);
  if (!group.hasStableField) fieldPropertyChanges(context, base, target);
}

function primaryKeyChanges(
  context: SchemaDiffContext,
  base: Json | undefined,
  target: Json | undefined,
): void {
  if (!context.categories.has('TECHNICAL_SCHEMA')) return;
  const before = new Set(texts(base?.['primaryKeys']));
  const after = new Set(texts(target?.['primaryKeys']));
  const event = (path: string, what: string): ChangeEvent => {
    const fieldUrn = schemaFieldUrn(context.datasetUrn, path);
    return {
      entityUrn: context.datasetUrn,
      category: 'TECHNICAL_SCHEMA',
      operation: 'MODIFY',
      modifier: fieldUrn,
      parameters: { fieldPath: path, fieldUrn, nullable: false, modificationCategory: 'OTHER' },
      semVerChange: 'MAJOR',
      description: `${INCOMPATIBLE} ${what} of the primary key field '${path}'`,
      ...(context.auditStamp ? { auditStamp: context.auditStamp } : {}),
    };
  };
  for (const key of [...before].sort(compareJava))
    if (!after.has(key)) context.events.push(event(key, 'removal'));
  for (const key of [...after].sort(compareJava))
    if (!before.has(key)) context.events.push(event(key, 'addition'));
}
