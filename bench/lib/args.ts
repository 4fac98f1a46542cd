/** Reads `--name value` flags (and `--name=value`); unknown flags are an error so typos do not go unnoticed. */
export function readArgs<T extends Record<string, string>>(defaults: T, argv = process.argv.slice(2)): T {
  const out: Record<string, string> = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') continue;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (!(name in defaults))
      throw new Error(
        `unknown flag --${name}; known: ${Object.keys(defaults)
          .map((k) => `--${k}`)
          .join(' ')}`,
      );
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    out[name] = value;
  }
  return out as T;
}

export function intArg(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer`);
  return n;
}
