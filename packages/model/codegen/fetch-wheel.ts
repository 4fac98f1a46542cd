import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';

/** A wheel on PyPI, pinned by version and content hash. */
export interface PinnedWheel {
  readonly project: string;
  readonly version: string;
  readonly sha256: string;
}

const SIMPLE_INDEX = 'https://pypi.org/simple';

/**
 * The wheel's bytes: from the download cache when its hash matches, else from PyPI (the JSON simple
 * API, PEP 691), checked against the pinned hash before it is used or cached.
 */
export async function fetchWheel(wheel: PinnedWheel): Promise<Uint8Array> {
  const dir = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'catalog-registry');
  const cached = join(dir, `${wheel.project}-${wheel.version}-${wheel.sha256}.whl`);
  const existing = await readFile(cached).catch(() => undefined);
  if (existing !== undefined && sha256(existing) === wheel.sha256) return existing;

  const index = await fetch(`${SIMPLE_INDEX}/${wheel.project}/`, {
    headers: { Accept: 'application/vnd.pypi.simple.v1+json' },
  });
  if (!index.ok) throw new Error(`PyPI answered ${index.status} for ${wheel.project}`);
  const listing = (await index.json()) as {
    files: { filename: string; url: string; hashes: Record<string, string> }[];
  };
  const file = listing.files.find((f) => f.hashes['sha256'] === wheel.sha256 && f.filename.endsWith('.whl'));
  if (file === undefined)
    throw new Error(`PyPI lists no wheel of ${wheel.project} ${wheel.version} with sha256 ${wheel.sha256}`);
  const response = await fetch(file.url);
  if (!response.ok) throw new Error(`PyPI answered ${response.status} for ${file.filename}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (sha256(bytes) !== wheel.sha256) throw new Error(`${file.filename} does not match its pinned sha256`);
  await mkdir(dir, { recursive: true });
  await writeFile(`${cached}.part`, bytes);
  await rename(`${cached}.part`, cached);
  return bytes;
}

/** The text of every file in the archive under `prefix` whose name ends with `suffix`, by base name. */
export function filesInWheel(bytes: Uint8Array, prefix: string, suffix: string): Map<string, string> {
  const entries = unzipSync(bytes, { filter: (f) => f.name.startsWith(prefix) && f.name.endsWith(suffix) });
  const decoder = new TextDecoder();
  const files = new Map<string, string>();
  for (const [name, content] of Object.entries(entries)) {
    const base = name.slice(prefix.length);
    if (!base.includes('/')) files.set(base, decoder.decode(content));
  }
  return files;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
