import { entityRegistry, ValidationError } from '@catalog/model';
import type { Criterion, Filter } from '../application/entity-search.js';
import { entityOfType } from '../graphql/entities/entity-types.js';

/**
 * The SQL-like filter of mcp-server-datahub's `search` and `get_lineage` tools (`platform = snowflake AND
 * (tag = urn:li:tag:pii OR NOT env = DEV)`, `platform IN (a, b)`, `columnCount > 10`, `owner IS NULL`),
 * turned into the search port's disjunctive normal form. Field names are the tool's (entity_type, tag,
 * glossary_term, ...), mapped to the index's; any other name (`structuredProperties.<id>`) passes as is.
 */
export interface ToolFilter {
  readonly filter: Filter;
  /** `status = ALL` or `ONLY_SOFT_DELETED`: soft-deleted entities are searched too. */
  readonly includeRemoved: boolean;
}

type Node =
  | { readonly kind: 'and' | 'or'; readonly parts: readonly Node[] }
  | { readonly kind: 'not'; readonly part: Node }
  | { readonly kind: 'leaf'; readonly criterion: Criterion };

const FIELDS: Readonly<Record<string, string>> = {
  entity_type: '_entityType',
  entity_subtype: 'typeNames',
  subtype: 'typeNames',
  platform: 'platform',
  domain: 'domains',
  container: 'container',
  tag: 'tags',
  glossary_term: 'glossaryTerms',
  owner: 'owners',
  env: 'origin',
  deprecated: 'deprecated',
  hasActiveIncidents: 'hasActiveIncidents',
  hasFailingAssertions: 'hasFailingAssertions',
};

const COMPARISONS: Readonly<Record<string, Criterion['condition']>> = {
  '=': 'EQUAL',
  '>': 'GREATER_THAN',
  '>=': 'GREATER_THAN_OR_EQUAL_TO',
  '<': 'LESS_THAN',
  '<=': 'LESS_THAN_OR_EQUAL_TO',
};

/** Disjunctions a filter may expand to: `(a OR b) AND (c OR d) ...` multiplies out. */
const MAX_CONJUNCTIONS = 64;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const pattern = /\s*(?:("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(>=|<=|!=|[=<>(),])|([^\s=<>!(),"']+))/gy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < text.length && (match = pattern.exec(text)) !== null) {
    at = pattern.lastIndex;
    tokens.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  if (text.slice(at).trim() !== '')
    throw new ValidationError(`Cannot read the filter at "${text.slice(at).trim()}"`);
  return tokens.filter((t) => t !== '');
}

const unquote = (token: string) => (/^["']/.test(token) ? token.slice(1, -1).replace(/\\(.)/g, '$1') : token);
const isWord = (token: string | undefined, word: string) => token?.toUpperCase() === word;

class Parser {
  private at = 0;
  constructor(private readonly tokens: readonly string[]) {}

  parse(): Node {
    const node = this.or();
    if (this.at < this.tokens.length)
      throw new ValidationError(`Unexpected "${this.tokens[this.at]}" in the filter`);
    return node;
  }

  private peek(): string | undefined {
    return this.tokens[this.at];
  }

  private next(what: string): string {
    const token = this.tokens[this.at++];
    if (token === undefined) throw new ValidationError(`The filter ends where ${what} was expected`);
    return token;
  }

  private or(): Node {
    const parts = [this.and()];
    while (isWord(this.peek(), 'OR')) {
      this.at++;
      parts.push(this.and());
    }
    return parts.length === 1 ? parts[0]! : { kind: 'or', parts };
  }

  private and(): Node {
    const parts = [this.unary()];
    while (isWord(this.peek(), 'AND')) {
      this.at++;
      parts.push(this.unary());
    }
    return parts.length === 1 ? parts[0]! : { kind: 'and', parts };
  }

  private unary(): Node {
    if (isWord(this.peek(), 'NOT')) {
      this.at++;
      return { kind: 'not', part: this.unary() };
    }
    if (this.peek() === '(') {
      this.at++;
      const node = this.or();
      if (this.next('")"') !== ')') throw new ValidationError('A "(" in the filter is not closed');
      return node;
    }
    return this.comparison();
  }

  private comparison(): Node {
    const field = unquote(this.next('a field name'));
    const operator = this.next(`an operator after ${field}`);
    if (isWord(operator, 'IS')) {
      const negated = isWord(this.peek(), 'NOT');
      if (negated) this.at++;
      if (!isWord(this.next('NULL'), 'NULL')) throw new ValidationError(`Expected NULL after ${field} IS`);
      return leaf(field, 'EXISTS', [], !negated);
    }
    if (isWord(operator, 'IN')) {
      if (this.next('"("') !== '(') throw new ValidationError(`Expected "(" after ${field} IN`);
      const values: string[] = [];
      for (;;) {
        values.push(unquote(this.next('a value')));
        const separator = this.next('"," or ")"');
        if (separator === ')') break;
        if (separator !== ',') throw new ValidationError(`Expected "," or ")" in ${field} IN (...)`);
      }
      return leaf(field, 'EQUAL', values, false);
    }
    const value = unquote(this.next(`a value after ${field} ${operator}`));
    if (operator === '!=') return leaf(field, 'EQUAL', [value], true);
    const condition = COMPARISONS[operator];
    if (condition === undefined)
      throw new ValidationError(`Unknown operator "${operator}" after ${field} in the filter`);
    return leaf(field, condition, [value], false);
  }
}

/** `dataset`, `DATASET`, `dataProduct`, `corp_user`: the registry entity. */
function entityNameOf(value: string): string {
  return (
    entityRegistry.getEntity(value)?.name ??
    entityOfType(value.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase())
  );
}

function leaf(name: string, condition: Criterion['condition'], values: string[], negated: boolean): Node {
  const field = FIELDS[name] ?? name;
  const mapped =
    field === '_entityType'
      ? values.map(entityNameOf)
      : field === 'platform'
        ? values.map((v) => (v.startsWith('urn:') ? v : `urn:li:dataPlatform:${v}`))
        : values;
  return { kind: 'leaf', criterion: { field, values: mapped, condition, ...(negated ? { negated } : {}) } };
}

/** The node as OR of ANDs, NOTs pushed down to the criteria. */
function dnf(node: Node, negate: boolean): Criterion[][] {
  if (node.kind === 'leaf') {
    const negated = (node.criterion.negated === true) !== negate;
    return [[{ ...node.criterion, negated }]];
  }
  if (node.kind === 'not') return dnf(node.part, !negate);
  const conjunctive = (node.kind === 'and') !== negate;
  const parts = node.parts.map((p) => dnf(p, negate));
  if (!conjunctive) return parts.flat();
  let product: Criterion[][] = [[]];
  for (const part of parts) {
    product = product.flatMap((left) => part.map((right) => [...left, ...right]));
    if (product.length > MAX_CONJUNCTIONS)
      throw new ValidationError(`The filter expands to more than ${MAX_CONJUNCTIONS} alternatives`);
  }
  return product;
}

/** Reads a tool's filter string; undefined or blank is no filter. */
export function parseToolFilter(text: string | undefined | null): ToolFilter {
  if (text === undefined || text === null || text.trim() === '')
    return { filter: { or: [] }, includeRemoved: false };
  const conjunctions = dnf(new Parser(tokenize(text)).parse(), false);
  let includeRemoved = false;
  const or = conjunctions.map((and) => ({
    and: and.flatMap((c): Criterion[] => {
      if (c.field !== 'status') return [c];
      const value = c.values[0]?.toUpperCase();
      if (value === 'ALL') {
        includeRemoved = true;
        return [];
      }
      if (value === 'ONLY_SOFT_DELETED') {
        includeRemoved = true;
        return [{ field: 'removed', values: ['true'], condition: 'EQUAL', negated: c.negated === true }];
      }
      if (value === 'NOT_SOFT_DELETED') return [];
      throw new ValidationError(
        `status must be NOT_SOFT_DELETED, ALL or ONLY_SOFT_DELETED, got ${c.values[0]}`,
      );
    }),
  }));
  // A conjunction left empty matches everything, and so does the whole disjunction.
  return { filter: { or: or.some((c) => c.and.length === 0) ? [] : or }, includeRemoved };
}
