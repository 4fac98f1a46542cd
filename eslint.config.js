import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/** pino's child appends bindings, so a key bound twice is printed twice in every line. */
const CHILD_LOGGER = {
  selector: "CallExpression[callee.property.name='child']",
  message: "Derive a logger with childLogger from '@catalog/runtime': it replaces a key bound again.",
};

/**
 * The gateway's interfaces (Rest.li, OpenAPI, GraphQL, the login routes, operations, MCP, the schema
 * registry) are thin adapters over the application layer (services/gateway/src/application): they parse,
 * call one use-case operation with the request's context, and format. They never reach a port or ask
 * for a privilege themselves, so the read policy cannot differ between routes. This rule keeps it so.
 */
const INTERFACE_FILES = [
  'services/gateway/src/restli/**/*.ts',
  'services/gateway/src/openapi/**/*.ts',
  'services/gateway/src/graphql/**/*.ts',
  'services/gateway/src/identity/**/*.ts',
  'services/gateway/src/operations/**/*.ts',
  'services/gateway/src/mcp/**/*.ts',
  'services/gateway/src/schema-registry/**/*.ts',
  'services/gateway/src/web/**/*.ts',
];
const THROUGH_THE_APPLICATION =
  'Interfaces reach ports and privileges through the application layer (services/gateway/src/application).';
const interfaceBoundary = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        { name: '@catalog/store', importNames: ['AspectStore'], message: THROUGH_THE_APPLICATION },
        { name: '@catalog/events', importNames: ['EventLog'], message: THROUGH_THE_APPLICATION },
        {
          name: '@catalog/search',
          importNames: ['SearchIndex', 'GraphIndex', 'TimeseriesIndex', 'AuditIndex'],
          message: THROUGH_THE_APPLICATION,
        },
      ],
      patterns: [
        {
          group: [
            '**/auth/gateway-auth.js',
            '**/auth/route-guards.js',
            '**/auth/rest-authorization.js',
            '**/graphql/authorization.js',
            '**/ingest/proposal-submitter.js',
            '**/application/access-policy.js',
          ],
          message: THROUGH_THE_APPLICATION,
        },
      ],
    },
  ],
  'no-restricted-syntax': [
    'error',
    CHILD_LOGGER,
    {
      selector: "MemberExpression[property.name='authorizer']",
      message: `Privileges are decided in the application layer only. ${THROUGH_THE_APPLICATION}`,
    },
    {
      // The application's AccessPolicy, reached as app.policy / application.policy.
      selector:
        "MemberExpression[property.name='policy'][object.name=/^(app|application)$/], MemberExpression[property.name='policy'][object.property.name=/^(app|application)$/]",
      message: `Privileges are decided in the application layer only. ${THROUGH_THE_APPLICATION}`,
    },
  ],
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'infra/local/.work/**', 'apps/web/src/gql/**'] },
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  { files: ['bench/**', 'infra/**', '**/*.test.ts', '**/testing/**'], rules: { 'no-console': 'off' } },
  {
    // pino's child appends bindings, so a key bound twice is printed twice in every line.
    files: ['packages/*/src/**/*.ts', 'services/*/src/**/*.ts'],
    ignores: ['packages/runtime/src/logger.ts', '**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', CHILD_LOGGER] },
  },
  {
    // Listed after the logger rule: for the same rule name the later entry wins, so it carries both.
    files: INTERFACE_FILES,
    ignores: ['**/*.test.ts'],
    rules: interfaceBoundary,
  },
);
