import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildASTSchema, introspectionFromSchema, parse } from 'graphql';
import { schemaSignatures } from '../src/graphql/reference/schema-signatures.js';

/**
 * `pnpm graphql:reference -- <datahub-git-dir> [<commit>]` writes the signatures (type, field and
 * argument names with their type strings; no descriptions) of the ecosystem's GraphQL schema, read from
 * `datahub-graphql-core/src/main/resources/*.graphql` of that git directory at the commit (HEAD when not
 * given), to the committed file the schema-conformance test compares ours with.
 */
const RESOURCES = 'datahub-graphql-core/src/main/resources/';
const TARGET = fileURLToPath(
  new URL('../src/graphql/reference/ecosystem-schema.generated.json', import.meta.url),
);

function git(gitDir: string, args: string[]): string {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

function main(): void {
  const [gitDir, ref = 'HEAD'] = process.argv.slice(2).filter((a) => a !== '--');
  if (gitDir === undefined) {
    process.stderr.write('usage: pnpm graphql:reference -- <datahub-git-dir> [<commit>]\n');
    process.exit(2);
  }
  const commit = git(gitDir, ['rev-parse', `${ref}^{commit}`]).trim();
  const files = git(gitDir, ['ls-tree', '--name-only', commit, RESOURCES])
    .split('\n')
    .filter((f) => f.endsWith('.graphql'))
    .sort();
  if (files.length === 0) throw new Error(`${commit} has no ${RESOURCES}*.graphql`);
  const sdl = files.map((f) => git(gitDir, ['show', `${commit}:${f}`])).join('\n');
  const schema = buildASTSchema(parse(sdl, { noLocation: true }), { assumeValidSDL: true });
  const types = schemaSignatures(introspectionFromSchema(schema));
  const document = {
    generated: `by pnpm graphql:reference from ${RESOURCES}*.graphql (${files.length} files) at ${commit}; do not edit`,
    commit,
    files: files.map((f) => f.slice(RESOURCES.length)),
    types,
  };
  writeFileSync(TARGET, `${JSON.stringify(document, null, 1)}\n`);
  process.stdout.write(`${Object.keys(types).length} types from ${files.length} files at ${commit}\n`);
}

main();
