import { RESTLI_ACTIONS, RESTLI_GET_EXAMPLES, type RestliAction } from '../../restli/restli-operations.js';

type Json = Record<string, unknown>;

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'] as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The values of an operation's `action` query parameter (none when it takes no action). */
function actionsOf(operation: Json): string[] {
  const action = ((operation['parameters'] ?? []) as Json[]).find(
    (p) => p['name'] === 'action' && p['in'] === 'query',
  );
  return ((action?.['schema'] as { enum?: string[] } | undefined)?.enum ?? []).map(String);
}

/** The request body's examples, when the document gives them (one per action, in the enum's order). */
function bodyExamplesOf(operation: Json): unknown[] {
  const content = ((operation['requestBody'] as Json | undefined)?.['content'] ?? {}) as Record<string, Json>;
  const schema = content['application/json']?.['schema'] as { examples?: unknown[] } | undefined;
  return Array.isArray(schema?.examples) ? schema.examples : [];
}

function parameterList(parameters: Json[]): string {
  if (parameters.length === 0) return '';
  const items = parameters.map((p) => {
    const schema = (p['schema'] ?? {}) as { enum?: string[] };
    const values = schema.enum ? ` = ${schema.enum.join(' | ')}` : '';
    const required = p['required'] === true ? ' <em>required</em>' : '';
    return `<li data-name="${escapeHtml(String(p['name']))}"><code>${escapeHtml(String(p['name']))}</code> (${escapeHtml(String(p['in']))})${required}${escapeHtml(values)}: ${escapeHtml(String(p['description'] ?? ''))}</li>`;
  });
  return `<ul class="parameters">${items.join('')}</ul>`;
}

function example(request: string, body?: unknown): string {
  const text = body === undefined ? request : `${request}\n${JSON.stringify(body, null, 2)}`;
  return `<div class="example"><h4>Example</h4><pre data-request="${escapeHtml(request)}">${escapeHtml(text)}</pre></div>`;
}

/** One action of a `POST <path>?action=` endpoint: its summary, body parameters and example. */
function actionSection(path: string, name: string, doc: RestliAction | undefined, fallback: unknown): string {
  const request = `POST ${path}?action=${name}`;
  const parameters =
    doc === undefined
      ? ''
      : `<table class="parameters"><thead><tr><th>Parameter</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${doc.parameters
          .map(
            (p) =>
              `<tr data-name="${escapeHtml(p.name)}"><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.type)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${escapeHtml(p.description)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const body = doc?.example ?? fallback;
  return `<section class="action" id="${escapeHtml(`${path.slice(1).replace(/\//g, '-')}-${name}`)}" data-action="${escapeHtml(name)}"><h3><code>${escapeHtml(request)}</code></h3>${doc === undefined ? '' : `<p>${escapeHtml(doc.summary)}</p>`}${parameters}${body === undefined ? '' : example(request, body)}</section>`;
}

/**
 * `/restli/docs` (spec 4.14): a browsable page of the legacy Rest.li-style endpoints, rendered from the
 * OpenAPI document so the two never disagree, with each action's body parameters and an example from
 * RESTLI_ACTIONS (and an example call of each GET endpoint from RESTLI_GET_EXAMPLES), which sit next to
 * the operations they document.
 */
export function restliDocsPage(
  document: Json,
  actions: Readonly<Record<string, Readonly<Record<string, RestliAction>>>> = RESTLI_ACTIONS,
  getExamples: Readonly<Record<string, string>> = RESTLI_GET_EXAMPLES,
): string {
  const paths = (document['paths'] ?? {}) as Record<string, Record<string, Json>>;
  const rows: string[] = [];
  const index: string[] = [];
  for (const [path, operations] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = operations[method];
      if (operation === undefined || !(operation['tags'] as string[] | undefined)?.includes('rest.li'))
        continue;
      const id = `${method}-${path.slice(1).replace(/[/{}]/g, (c) => (c === '/' ? '-' : ''))}`;
      const title = `${method.toUpperCase()} ${path}`;
      index.push(`<li><a href="#${escapeHtml(id)}"><code>${escapeHtml(title)}</code></a></li>`);
      const names = actionsOf(operation);
      const fallbacks = bodyExamplesOf(operation);
      const docs = actions[path] ?? {};
      const detail =
        names.length > 0
          ? names.map((name, k) => actionSection(path, name, docs[name], fallbacks[k])).join('')
          : getExamples[title] !== undefined
            ? example(`${title.split(' ')[0]} ${getExamples[title]}`)
            : '';
      rows.push(
        `<section class="resource" id="${escapeHtml(id)}" data-method="${method}" data-path="${escapeHtml(path)}"><h2><code>${escapeHtml(title)}</code></h2><p>${escapeHtml(String(operation['summary'] ?? ''))}</p>${parameterList((operation['parameters'] ?? []) as Json[])}${detail}</section>`,
      );
    }
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rest.li endpoints</title>
<link rel="icon" href="data:,">
<style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}h2{font-size:1.1rem;margin-bottom:.2rem}h3{font-size:1rem;margin:.8rem 0 .2rem}h4{font-size:.9rem;margin:.4rem 0 .2rem}section.resource{border-bottom:1px solid #ddd;padding:.5rem 0}section.action{margin-left:1rem}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .4rem;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:.5rem;overflow-x:auto}</style>
</head><body><h1>Rest.li endpoints</h1>
<p>The legacy endpoints of this catalog, as the ecosystem's clients call them (header <code>X-RestLi-Protocol-Version: 2.0.0</code>). The whole API is described at <a href="/openapi/v3/api-docs">/openapi/v3/api-docs</a>, browsable in <a href="/openapi/swagger-ui/index.html">Swagger UI</a>.</p>
<nav><ul>${index.join('')}</ul></nav>
${rows.join('\n')}
</body></html>
`;
}
