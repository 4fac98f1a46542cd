import { describe, expect, it } from 'vitest';
import { registrySchemaResolver, SchemaRegistryUnavailableError } from './registry-client.js';
import { eventSchemas } from './schemas/event-schemas.js';

function fakeRegistry(answers: Record<string, () => Response>) {
  const calls: string[] = [];
  const fetchFn = (async (input: string | URL | Request) => {
    const url = String(input);
    calls.push(url);
    const answer = answers[url];
    if (!answer) throw new TypeError('fetch failed');
    return answer();
  }) as typeof fetch;
  return { calls, fetchFn };
}

describe('registrySchemaResolver', () => {
  const mcp = eventSchemas[0]!;
  const json =
    (body: unknown, status = 200) =>
    () =>
      new Response(JSON.stringify(body), { status });

  it('GETs /schemas/ids/{id} once per id and parses the Avro schema', async () => {
    const { calls, fetchFn } = fakeRegistry({
      'http://registry:8081/schemas/ids/7': json({ schema: mcp.schema }),
    });
    const resolve = registrySchemaResolver({ url: 'http://registry:8081/', fetch: fetchFn });
    const [a, b] = await Promise.all([resolve(7), resolve(7)]);
    expect(a?.name).toBe(mcp.name);
    expect(b).toBe(a);
    await resolve(7);
    expect(calls).toEqual(['http://registry:8081/schemas/ids/7']);
  });

  it('answers undefined for an unknown id and asks again later; fails retriably when unreachable', async () => {
    const { calls, fetchFn } = fakeRegistry({
      'http://r/schemas/ids/404': json({ error_code: 40403, message: 'Schema 404 not found' }, 404),
      'http://r/schemas/ids/500': json({ error_code: 50001 }, 500),
    });
    const resolve = registrySchemaResolver({ url: 'http://r', fetch: fetchFn });
    expect(await resolve(404)).toBeUndefined();
    expect(await resolve(404)).toBeUndefined();
    expect(calls).toHaveLength(2);
    await expect(resolve(500)).rejects.toBeInstanceOf(SchemaRegistryUnavailableError);
    await expect(resolve(1)).rejects.toBeInstanceOf(SchemaRegistryUnavailableError);
  });
});
