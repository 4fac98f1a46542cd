import { defineConfig } from 'vitest/config';

const conditions = ['source', 'node', 'import', 'module', 'default'];

// Three tiers, named by file suffix: unit (no I/O), int (one adapter against its real service),
// e2e (the HTTP interface over the whole pipeline).
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['**/*.unit.test.ts'], exclude: ['**/node_modules/**'] } },
      {
        extends: true,
        test: {
          name: 'int',
          include: ['**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['**/*.e2e.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
