import { defineConfig } from 'vitest/config';

// Three tiers, named by file suffix: unit (no I/O), int (one adapter against its real service),
// e2e (the HTTP interface over the whole pipeline).
export default defineConfig({
  // `source` makes workspace packages resolve to their TypeScript sources, so tests need no build.
  // The rest are vite's own defaults for server code (keeping CommonJS packages on their require entry).
  resolve: { conditions: ['source', 'module', 'node', 'development|production'] },
  ssr: { resolve: { conditions: ['source', 'module', 'node', 'development|production'] } },
  test: {
    // A dependency that publishes its TypeScript under the `source` condition (eventsource-parser, which
    // the MCP SDK's client uses) is transformed by vite like our own sources, and so is the SDK that
    // imports it, instead of both being loaded by Node.
    server: { deps: { inline: [/@modelcontextprotocol\/sdk/, 'eventsource-parser'] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // The web app's component tests (*.unit.test.tsx) run in a simulated DOM they ask for per
          // file (`@vitest-environment jsdom`).
          include: ['**/*.unit.test.ts', '**/*.unit.test.tsx'],
          exclude: ['**/node_modules/**'],
        },
      },
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
