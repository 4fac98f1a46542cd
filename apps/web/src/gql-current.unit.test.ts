import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { graphql } from './gql';
import { TypedDocumentString } from './gql/graphql';

const SRC = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'gql' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the generated GraphQL documents', () => {
  it('are current: every graphql(`…`) in src is a generated document (else run pnpm web:codegen)', () => {
    const stale: string[] = [];
    let found = 0;
    for (const file of sources(SRC))
      for (const match of readFileSync(file, 'utf8').matchAll(/graphql\(`([\s\S]*?)`\)/g)) {
        found++;
        const document: unknown = (graphql as (source: string) => unknown)(match[1]!);
        if (!(document instanceof TypedDocumentString))
          stale.push(`${file}: ${match[1]!.trim().split('\n')[0]}`);
      }
    expect(found).toBeGreaterThan(10);
    expect(stale).toEqual([]);
  });
});
