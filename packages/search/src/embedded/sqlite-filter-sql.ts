import { NUMERIC_TYPES } from '../document-fields.js';
import type { Criterion, Filter } from '../port.js';
import { jsonPathOf, type IndexedEntity } from './indexed-entity.js';
import { FIELD_ID_SQL } from './keyed-values-schema.js';

/** A SQL boolean expression and its bound parameters. */
export interface SqlPart {
  readonly sql: string;
  readonly params: readonly unknown[];
}

export const TRUE: SqlPart = { sql: '1', params: [] };
const FALSE: SqlPart = { sql: '0', params: [] };

/**
 * The SQL of a canonical filter for documents of one entity type, over the document id expression
 * `idExpr` (e.g. `d.id`). A criterion on a keyed field is a membership test on `vals` (index driven);
 * on a free-text field it reads the stored document (`json_each`). A field the entity type lacks
 * matches nothing (and its negation everything).
 */
export function filterSql(entity: IndexedEntity, filter: Filter | undefined, idExpr: string): SqlPart {
  if (filter === undefined || filter.or.length === 0) return TRUE;
  const disjuncts = filter.or.map((conjunction) => {
    if (conjunction.and.length === 0) return TRUE;
    // Positive criteria on keyed fields become one INTERSECT of id lists, so the most selective list
    // bounds the work instead of the planner probing every document against each list.
    const positive = conjunction.and.filter((c) => c.negated !== true && isKeyedField(entity, c.field));
    const rest = conjunction.and.filter((c) => !positive.includes(c));
    const parts = rest.map((criterion) => criterionSql(entity, criterion, idExpr));
    // SQLite takes at most 500 terms in one compound SELECT: a longer INTERSECT goes in several.
    const intersections: SqlPart[] = [];
    for (let i = 0; i < positive.length; i += MAX_COMPOUND_SELECT) {
      const lists = positive.slice(i, i + MAX_COMPOUND_SELECT).map((c) => keyedIdList(entity, c));
      intersections.push({
        sql: `${idExpr} IN (${lists.map((l) => l.sql).join(' INTERSECT ')})`,
        params: lists.flatMap((l) => l.params),
      });
    }
    parts.unshift(...intersections);
    return join(parts, ' AND ');
  });
  return join(disjuncts, ' OR ');
}

/** SQLite's SQLITE_MAX_COMPOUND_SELECT default, less a margin. */
const MAX_COMPOUND_SELECT = 400;
/** Operands joined flat under one parenthesis; SQLite parses `a OR b OR c` one level deeper per operand. */
const FLAT_OPERANDS = 64;

/**
 * Joins expressions with AND or OR as a tree of groups of at most FLAT_OPERANDS, so that a thousand
 * criteria or values stay far below SQLite's expression depth limit of 1000.
 */
function join(parts: readonly SqlPart[], operator: string): SqlPart {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  if (parts.length > FLAT_OPERANDS) {
    const groups: SqlPart[] = [];
    for (let i = 0; i < parts.length; i += FLAT_OPERANDS)
      groups.push(join(parts.slice(i, i + FLAT_OPERANDS), operator));
    return join(groups, operator);
  }
  return { sql: `(${parts.map((p) => p.sql).join(operator)})`, params: parts.flatMap((p) => p.params) };
}

function isKeyedField(entity: IndexedEntity, field: string): boolean {
  const mapping = entity.mappings.get(field);
  return mapping !== undefined && mapping.aliasOf === undefined && entity.keyed.has(field);
}

/**
 * `SELECT doc FROM vals ...` for one criterion on a keyed field, negation left out. A condition on the
 * value is tested on the field's distinct values (`val_values`), each passing one read from `vals`.
 */
function keyedIdList(entity: IndexedEntity, criterion: Criterion): SqlPart {
  const mapping = entity.mappings.get(criterion.field);
  const numeric = mapping !== undefined && NUMERIC_TYPES.has(mapping.type);
  const condition = valueCondition(criterion, numeric, 'x.value', 'x.num');
  const field = [entity.spec.entityType, criterion.field];
  if (condition.sql === '')
    return { sql: `SELECT doc FROM vals WHERE field = ${FIELD_ID_SQL}`, params: field };
  return {
    sql: keyedIdsWhere(condition.sql),
    params: [...field, ...condition.params],
  };
}

/**
 * The ids of the documents holding a value of one field (bound first, as entity type and field) for
 * which `condition` (over `x.value`, `x.num`; its parameters bound next) holds. CROSS JOIN keeps the
 * values first: without statistics the planner would scan the field's `vals` rows and look up each
 * one's value, a pass over every document for a filter on one platform.
 */
export function keyedIdsWhere(condition: string): string {
  return `SELECT v.doc FROM val_values x CROSS JOIN vals v ON v.field = x.field AND v.value = x.id
          WHERE x.field = ${FIELD_ID_SQL} AND ${condition}`;
}

function criterionSql(entity: IndexedEntity, criterion: Criterion, idExpr: string): SqlPart {
  const negated = criterion.negated === true;
  const mapping = entity.mappings.get(criterion.field);
  if (mapping === undefined || mapping.aliasOf !== undefined) return negated ? TRUE : FALSE;
  const numeric = NUMERIC_TYPES.has(mapping.type);
  if (entity.keyed.has(criterion.field)) {
    const list = keyedIdList(entity, criterion);
    return { sql: `${idExpr} ${negated ? 'NOT IN' : 'IN'} (${list.sql})`, params: list.params };
  }
  const condition = valueCondition(criterion, numeric, 'j.value', 'j.value');
  const sql =
    `${negated ? 'NOT ' : ''}EXISTS (SELECT 1 FROM docs jd, json_each(doc_json(jd.doc), ?) j WHERE jd.id = ${idExpr}` +
    `${condition.sql === '' ? '' : ` AND ${condition.sql}`})`;
  return { sql, params: [jsonPathOf(criterion.field), ...condition.params] };
}

function valueCondition(criterion: Criterion, numeric: boolean, value: string, num: string): SqlPart {
  const values = criterion.values;
  const marks = values.map(() => '?').join(', ');
  const lowered = values.map((v) => v.toLowerCase());
  // Grouping keeps the operands in order, so the parameters bind as listed.
  const anyOf = (expr: string, params: readonly unknown[]): SqlPart => ({
    sql: `(${
      join(
        values.map(() => ({ sql: expr, params: [] })),
        ' OR ',
      ).sql
    })`,
    params,
  });
  switch (criterion.condition) {
    case 'EXISTS':
      return { sql: '', params: [] };
    case 'EQUAL':
    case 'IN':
      return numeric
        ? { sql: `${num} IN (${marks})`, params: values.map(Number) }
        : { sql: `${value} IN (${marks})`, params: values };
    case 'IEQUAL':
      return { sql: `lower(${value}) IN (${marks})`, params: lowered };
    case 'CONTAIN':
      return anyOf(`instr(lower(${value}), ?) > 0`, lowered);
    case 'START_WITH':
      return anyOf(
        `substr(lower(${value}), 1, ?) = ?`,
        lowered.flatMap((v) => [v.length, v]),
      );
    case 'END_WITH':
      return anyOf(
        `(? = '' OR substr(lower(${value}), -?) = ?)`,
        lowered.flatMap((v) => [v, v.length, v]),
      );
    case 'GREATER_THAN':
      return anyOf(`${num} > ?`, values.map(Number));
    case 'GREATER_THAN_OR_EQUAL_TO':
      return anyOf(`${num} >= ?`, values.map(Number));
    case 'LESS_THAN':
      return anyOf(`${num} < ?`, values.map(Number));
    case 'LESS_THAN_OR_EQUAL_TO':
      return anyOf(`${num} <= ?`, values.map(Number));
    default:
      return FALSE;
  }
}
