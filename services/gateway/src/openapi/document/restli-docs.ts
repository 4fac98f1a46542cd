type Json = Record<string, unknown>;

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * `/restli/docs` (spec 4.14): a browsable page of the legacy Rest.li-style endpoints, rendered from the
 * OpenAPI document so the two never disagree.
 */
export function restliDocsPage(document: Json): string {
  const paths = (document['paths'] ?? {}) as Record<string, Record<string, Json>>;
  const rows: string[] = [];
  for (const [path, operations] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = operations[method];
      if (operation === undefined || !(operation['tags'] as string[] | undefined)?.includes('rest.li'))
        continue;
      const parameters = ((operation['parameters'] ?? []) as Json[])
        .map((p) => {
          const schema = (p['schema'] ?? {}) as { enum?: string[] };
          const values = schema.enum ? ` = ${schema.enum.join(' | ')}` : '';
          return `<li><code>${escapeHtml(String(p['name']))}</code> (${escapeHtml(String(p['in']))})${escapeHtml(values)}: ${escapeHtml(String(p['description'] ?? ''))}</li>`;
        })
        .join('');
      rows.push(
        `<section><h2><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h2><p>${escapeHtml(String(operation['summary'] ?? ''))}</p>${parameters === '' ? '' : `<ul>${parameters}</ul>`}</section>`,
      );
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rest.li endpoints</title>
<style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}h2{font-size:1.1rem;margin-bottom:.2rem}section{border-bottom:1px solid #ddd;padding:.5rem 0}</style>
</head><body><h1>Rest.li endpoints</h1>
<p>The legacy endpoints of this catalog, as the ecosystem's clients call them (header <code>X-RestLi-Protocol-Version: 2.0.0</code>). The whole API is described at <a href="/openapi/v3/api-docs">/openapi/v3/api-docs</a>, browsable in <a href="/openapi/swagger-ui/index.html">Swagger UI</a>.</p>
${rows.join('\n')}
</body></html>
`;
}
