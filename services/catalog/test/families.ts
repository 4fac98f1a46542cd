import { skipUnlessCi } from '@catalog/testkit';
import { distributedEnv } from './distributed-env.js';

/** A named way to run the catalog: the embedded adapters, or the real services in isolation. */
export interface Family {
  readonly name: string;
  /** Why this family cannot run here, or undefined when it can. */
  readonly skip?: string;
  /** Environment for a fresh, isolated catalog of this family. */
  env(): Record<string, string>;
}

const missing = ['KAFKA_BOOTSTRAP_SERVER', 'MONGODB_URI', 'OPENSEARCH_URL'].filter((v) => !process.env[v]);

export const FAMILIES: readonly Family[] = [
  { name: 'embedded', env: () => ({}) },
  {
    name: 'kafka+mongodb+opensearch',
    ...(missing.length > 0
      ? { skip: skipUnlessCi(`${missing.join(', ')} not set (run pnpm infra:up and source its env)`) }
      : {}),
    env: distributedEnv,
  },
];
