import { stripKeywordSuffix } from './normalize-filter.js';
import type { Criterion, Filter } from './port.js';

/** Conjunctions an expression may expand to (AND over ORs multiplies them). */
const MAX_CONJUNCTIONS = 64;

type Token =
  | { readonly kind: '(' | ')' | 'AND' | 'OR' }
  | {
      readonly kind: 'term';
      readonly field: string;
      readonly value: string;
      readonly quoted: boolean;
      /** `-field:value`: the documents without that value. */
      readonly negated: boolean;
    };

/**
 * A search input written as the ecosystem's clients write field queries (the SDK's platform resource
 * search: `(primaryKey:"k" OR secondaryKeys:"urn\:li\:...")`, `(resourceType:"t" AND platform.keyword:"..."`)
 * as an exact-match filter: `field:value` terms (the value quoted or bare, `\x` standing for `x`,
 * `.keyword` dropped, `-field:value` for its negation) combined with `AND`/`OR` (AND binding tighter)
 * and parentheses. Undefined for
 * any other input, and for a lone bare `field:value` (parseSearchInput's field query, prefix `*` and
 * all), so only the forms that query cannot express become filters.
 */
export function fieldExpressionFilter(input: string): Filter | undefined {
  const tokens = tokenize(input.trim());
  if (tokens === undefined || tokens.length === 0) return undefined;
  const only = tokens[0];
  if (tokens.length === 1 && only?.kind === 'term' && !only.quoted) return undefined;
  const parser = new Parser(tokens);
  const conjunctions = parser.expression();
  if (conjunctions === undefined || !parser.done()) return undefined;
  return { or: conjunctions.map((and) => ({ and })) };
}

class Parser {
  private at = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  done(): boolean {
    return this.at === this.tokens.length;
  }

  /** expression := conjunction (OR conjunction)*, as conjunctions of criteria (DNF). */
  expression(): Criterion[][] | undefined {
    let out = this.conjunction();
    while (out !== undefined && this.tokens[this.at]?.kind === 'OR') {
      this.at++;
      const next = this.conjunction();
      if (next === undefined) return undefined;
      out = [...out, ...next];
      if (out.length > MAX_CONJUNCTIONS) return undefined;
    }
    return out;
  }

  /** conjunction := primary (AND primary)* */
  private conjunction(): Criterion[][] | undefined {
    let out = this.primary();
    while (out !== undefined && this.tokens[this.at]?.kind === 'AND') {
      this.at++;
      const next = this.primary();
      if (next === undefined) return undefined;
      const product: Criterion[][] = [];
      for (const left of out) for (const right of next) product.push([...left, ...right]);
      if (product.length > MAX_CONJUNCTIONS) return undefined;
      out = product;
    }
    return out;
  }

  /** primary := '(' expression ')' | field:value */
  private primary(): Criterion[][] | undefined {
    const token = this.tokens[this.at];
    if (token === undefined) return undefined;
    this.at++;
    if (token.kind === 'term')
      return [
        [
          {
            field: stripKeywordSuffix(token.field),
            values: [token.value],
            condition: 'EQUAL',
            ...(token.negated ? { negated: true } : {}),
          },
        ],
      ];
    if (token.kind !== '(') return undefined;
    const inner = this.expression();
    if (inner === undefined || this.tokens[this.at]?.kind !== ')') return undefined;
    this.at++;
    return inner;
  }
}

/** The input's tokens; undefined when it holds anything but terms, operators and parentheses. */
function tokenize(input: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '(' || ch === ')') {
      tokens.push({ kind: ch });
      i++;
      continue;
    }
    const negated = ch === '-';
    if (negated) i++;
    const field = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(input.slice(i))?.[0];
    if (field === undefined) return undefined;
    i += field.length;
    if (input[i] !== ':') {
      if (!negated && (field === 'AND' || field === 'OR')) {
        tokens.push({ kind: field });
        continue;
      }
      return undefined;
    }
    i++;
    const quoted = input[i] === '"';
    if (quoted) i++;
    let value = '';
    let closed = !quoted;
    while (i < input.length) {
      const c = input[i]!;
      if (c === '\\' && i + 1 < input.length) {
        value += input[i + 1];
        i += 2;
        continue;
      }
      if (quoted && c === '"') {
        closed = true;
        i++;
        break;
      }
      if (!quoted && (/\s/.test(c) || c === '(' || c === ')')) break;
      // A bare trailing `*` asks for a prefix: not an exact match.
      if (!quoted && c === '*') return undefined;
      value += c;
      i++;
    }
    if (!closed || value === '') return undefined;
    tokens.push({ kind: 'term', field, value, quoted, negated });
  }
  return tokens;
}
