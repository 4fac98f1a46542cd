import { Agent, request } from 'node:http';

export interface LoadResult {
  readonly operations: number;
  readonly durationMs: number;
  readonly latenciesMs: number[];
  readonly errors: number;
}

/** Runs `total` operations with `concurrency` in flight, timing each. */
export async function runLoad(
  total: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      try {
        await op(i);
        latencies.push(performance.now() - t0);
      } catch (error) {
        errors++;
        if (errors <= 3) console.error(`operation ${i} failed: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { operations: total, durationMs: performance.now() - started, latenciesMs: latencies, errors };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function report(label: string, result: LoadResult, itemsPerOp = 1): Record<string, string | number> {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  const row = {
    scenario: label,
    ops: result.operations,
    errors: result.errors,
    'ops/s': Math.round((result.operations / result.durationMs) * 1000),
    'items/s': Math.round(((result.operations * itemsPerOp) / result.durationMs) * 1000),
    'p50 ms': Number(percentile(sorted, 50).toFixed(2)),
    'p99 ms': Number(percentile(sorted, 99).toFixed(2)),
  };
  return row;
}

/** The system client's default credentials, as the ecosystem's tools send them. */
export const SYSTEM_CLIENT_AUTHORIZATION = 'Basic __datahub_system:JohnSnowKnowsNothing';

/** A keep-alive JSON client on node:http: far less client overhead than fetch at high request rates. */
export class JsonClient {
  private readonly agent: Agent;
  private readonly url: URL;

  /** `authorization`: the Authorization header of every request (default: the system client); null sends none. */
  constructor(
    baseUrl: string,
    maxSockets: number,
    private readonly authorization: string | null = SYSTEM_CLIENT_AUTHORIZATION,
  ) {
    this.url = new URL(baseUrl);
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  send(method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          headers: {
            'Content-Type': 'application/json',
            'X-RestLi-Protocol-Version': '2.0.0',
            ...(this.authorization === null ? {} : { Authorization: this.authorization }),
            ...(payload ? { 'Content-Length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  async expectOk(method: string, path: string, body?: unknown): Promise<string> {
    const res = await this.send(method, path, body);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 200)}`);
    return res.body;
  }

  close(): void {
    this.agent.destroy();
  }
}
