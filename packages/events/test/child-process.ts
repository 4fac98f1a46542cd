import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface RunningChild {
  readonly child: ChildProcess;
  /** Complete stdout lines so far. */
  readonly lines: string[];
  readonly stderr: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a TypeScript fixture in a fresh Node process, the way the services run (source condition, tsx). */
export function runFixture(script: string, args: readonly string[]): RunningChild {
  const path = fileURLToPath(new URL(`./fixtures/${script}`, import.meta.url));
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', path, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let errors = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, stderr: () => errors, exited };
}
