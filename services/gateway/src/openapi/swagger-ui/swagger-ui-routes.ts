import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Express } from 'express';

/**
 * The directory of swagger-ui-dist's assets, found without loading the package: its entry module
 * evaluates the whole Swagger UI bundle (megabytes kept on the heap of a server that only serves it).
 */
const assetsDir = (): string =>
  dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export const SWAGGER_UI_PATH = '/openapi/swagger-ui';

/**
 * Swagger UI over the catalog's OpenAPI document, at the ecosystem's path. The assets come from
 * swagger-ui-dist, served by the catalog itself: the page works with no network beyond the catalog.
 * Operations start collapsed: the document has a path per entity and aspect. The top bar lists the
 * document's groups.
 */
export function mountSwaggerUi(app: Express, documentUrl: string, groups: readonly string[]): void {
  // The whole document first, then each group (the ecosystem's group names), in the top bar's list.
  const urls = [
    { url: documentUrl, name: 'all' },
    ...groups.map((group) => ({ url: `${documentUrl}?group=${group}`, name: group })),
  ];
  const initializer = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    urls: ${JSON.stringify(urls)},
    'urls.primaryName': 'all',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    // No online validator badge: it would send the document's address to a third party.
    validatorUrl: null,
    defaultModelsExpandDepth: -1,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
`;
  app.get(`${SWAGGER_UI_PATH}/swagger-initializer.js`, (_req, res) => {
    res.type('application/javascript').send(initializer);
  });
  app.get(SWAGGER_UI_PATH, (_req, res) => res.redirect(`${SWAGGER_UI_PATH}/index.html`));
  app.use(SWAGGER_UI_PATH, express.static(assetsDir(), { index: 'index.html' }));
}
