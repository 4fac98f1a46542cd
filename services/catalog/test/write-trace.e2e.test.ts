import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { signUpUser } from './test-users.js';
import { graphql } from './graphql-client.js';
import {
  callAs,
  datasetUrn,
  enc,
  logIn,
  startTestCatalog,
  SYSTEM_CLIENT_AUTHORIZATION,
  waitUntil,
  type JsonResponse,
  type TestCatalog,
} from './harness.js';

/**
 * The write trace, `POST /openapi/v1/trace/write/{traceId}`, as the ecosystem's smoke suite
 * (tests/trace/test_api_trace.py) and the SDK's ASYNC_WAIT emit mode use it: an asynchronous write
 * answers 202 with a traceparent (and, asked for, the system metadata it was submitted with, whose
 * telemetryTraceId is the trace id); the trace then tells, per urn and aspect, what became of it in
 * the primary store and in search, from the store, the refused proposals and the consumers' positions.
 */

interface StorageStatus {
  writeStatus: string;
  writeMessage?: string;
  writeExceptions?: { message: string }[];
}
interface TraceStatus {
  success: boolean;
  primaryStorage: StorageStatus;
  searchStorage: StorageStatus;
}
type TraceAnswer = Record<string, Record<string, TraceStatus>>;

const bearer = (token: string) => `Bearer ${token}`;
const resolved = (answer: TraceAnswer) =>
  Object.values(answer).every((aspects) =>
    Object.values(aspects).every(
      (s) => s.primaryStorage.writeStatus !== 'PENDING' && s.searchStorage.writeStatus !== 'PENDING',
    ),
  );

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`the write trace of asynchronous writes (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let reader: string;
    let noRole: string;
    const run = Date.now().toString(36);
    const urn = (name: string) => datasetUrn(`trace_${run}_${name}`, 'test');

    /** An async write of the entity API; answers the trace id its response names (header and body agree). */
    async function writeAsync(
      target: string,
      aspects: Record<string, unknown>,
      headers?: Record<string, string>,
    ): Promise<string> {
      const res = await fetch(`${base}/openapi/v3/entity/dataset?async=true&systemMetadata=true`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: admin },
        body: JSON.stringify([
          {
            urn: target,
            ...Object.fromEntries(
              Object.entries(aspects).map(([name, value]) => [
                name,
                { value, ...(headers === undefined ? {} : { headers }) },
              ]),
            ),
          },
        ]),
      });
      const body = (await res.json()) as Record<
        string,
        { systemMetadata?: { properties?: Record<string, string> } }
      >[];
      expect(res.status, JSON.stringify(body)).toBe(202);
      const traceparent = res.headers.get('traceparent') ?? '';
      const first = Object.keys(aspects)[0]!;
      const traceId = body[0]![first]!.systemMetadata?.properties?.['telemetryTraceId'] ?? '';
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(traceparent.startsWith(`00-${traceId}-`)).toBe(true);
      return traceId;
    }

    const trace = (
      traceId: string,
      body: unknown,
      query = 'onlyIncludeErrors=false&detailed=true',
      authorization = admin,
    ): Promise<JsonResponse> =>
      callAs(base, 'POST', `/openapi/v1/trace/write/${traceId}?${query}`, authorization, body);

    /** Polls the trace until nothing is PENDING (as the SDK's ASYNC_WAIT does). */
    async function settled(traceId: string, body: Record<string, string[]>): Promise<TraceAnswer> {
      const res = await waitUntil(
        () => trace(traceId, body),
        (r) => r.status !== 200 || resolved(r.body as TraceAnswer),
        30_000,
      );
      expect(res.status, res.text).toBe(200);
      return res.body as TraceAnswer;
    }

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = await signUpUser(base, admin, `trace_norole_${run}@example.com`);
      reader = await signUpUser(base, admin, `trace_reader_${run}@example.com`, 'Reader');
    }, 90_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('an applied write is ACTIVE_STATE in the store and in search, with success', async () => {
      const target = urn('active');
      const traceId = await writeAsync(target, { status: { removed: false } });
      expect(await settled(traceId, { [target]: ['status'] })).toEqual({
        [target]: {
          status: {
            success: true,
            primaryStorage: { writeStatus: 'ACTIVE_STATE' },
            searchStorage: { writeStatus: 'ACTIVE_STATE' },
          },
        },
      });
      // The whole traceparent names the trace as well as its id does.
      const byHeader = await trace(`00-${traceId}-0123456789abcdef-01`, { [target]: ['status'] });
      expect((byHeader.body as TraceAnswer)[target]?.['status']?.primaryStorage.writeStatus).toBe(
        'ACTIVE_STATE',
      );
    });

    it('a write a later one replaced is HISTORIC_STATE; the later one is ACTIVE_STATE', async () => {
      const target = urn('overwritten');
      const first = await writeAsync(target, {
        datasetProperties: { name: 'original', customProperties: {}, tags: [] },
      });
      await settled(first, { [target]: ['datasetProperties'] });
      const second = await writeAsync(target, {
        datasetProperties: { name: 'updated', customProperties: {}, tags: [] },
      });
      const now = await settled(second, { [target]: ['datasetProperties'] });
      expect(now[target]?.['datasetProperties']?.primaryStorage).toEqual({ writeStatus: 'ACTIVE_STATE' });
      const before = await settled(first, { [target]: ['datasetProperties'] });
      expect(before[target]?.['datasetProperties']).toEqual({
        success: true,
        primaryStorage: { writeStatus: 'HISTORIC_STATE' },
        searchStorage: { writeStatus: 'HISTORIC_STATE' },
      });
    });

    it('writing the stored value again is NO_OP in the store and in search', async () => {
      const target = urn('noop');
      await settled(await writeAsync(target, { status: { removed: false } }), { [target]: ['status'] });
      const again = await writeAsync(target, { status: { removed: false } });
      expect((await settled(again, { [target]: ['status'] }))[target]?.['status']).toEqual({
        success: true,
        primaryStorage: { writeStatus: 'NO_OP' },
        searchStorage: { writeStatus: 'NO_OP' },
      });
    });

    it('a write persistence refused is ERROR with its reason, and search says the primary write failed', async () => {
      const target = urn('refused');
      const traceId = await writeAsync(
        target,
        {
          glossaryTerms: {
            terms: [{ urn: 'urn:li:glossaryTerm:someTerm' }],
            auditStamp: { time: 0, actor: 'urn:li:corpuser:datahub' },
          },
        },
        { 'If-Version-Match': '-10000' },
      );
      const answer = await settled(traceId, { [target]: ['glossaryTerms'] });
      expect(answer[target]?.['glossaryTerms']).toEqual({
        success: false,
        primaryStorage: {
          writeStatus: 'ERROR',
          writeExceptions: [{ message: 'Expected version -10000, actual version -1' }],
        },
        searchStorage: { writeStatus: 'ERROR', writeMessage: 'Primary storage write failed.' },
      });
      // Without `detailed`, the reason is the message; the default answers only errors.
      const brief = await trace(traceId, { [target]: ['glossaryTerms'] }, '');
      expect(brief.status, brief.text).toBe(200);
      expect((brief.body as TraceAnswer)[target]?.['glossaryTerms']?.primaryStorage).toEqual({
        writeStatus: 'ERROR',
        writeMessage: 'Expected version -10000, actual version -1',
      });
    });

    it('a time-series write is NO_OP in the store and TRACE_NOT_IMPLEMENTED in search', async () => {
      const target = urn('profile');
      const traceId = await writeAsync(target, {
        datasetProfile: { timestampMillis: Date.now(), messageId: 'trace test', rowCount: 1 },
      });
      expect((await settled(traceId, { [target]: ['datasetProfile'] }))[target]?.['datasetProfile']).toEqual({
        success: true,
        primaryStorage: { writeStatus: 'NO_OP' },
        searchStorage: { writeStatus: 'TRACE_NOT_IMPLEMENTED' },
      });
    });

    it('a trace id that wrote nothing there is an ERROR once persistence has passed its records', async () => {
      const target = urn('never');
      const unknown = `${(BigInt(Date.now()) * 1000n).toString(16).padStart(16, '0')}0123456789abcdef`;
      const answer = await settled(unknown, { [target]: ['status'] });
      expect(answer[target]?.['status']?.primaryStorage).toEqual({
        writeStatus: 'ERROR',
        writeMessage: 'Consumer has processed past the offset.',
      });
    });

    it('onlyIncludeErrors (the default) leaves out the aspects that succeeded, and urns left with none', async () => {
      const target = urn('quiet');
      const traceId = await writeAsync(target, { status: { removed: false } });
      await settled(traceId, { [target]: ['status'] });
      const res = await trace(traceId, { [target]: ['status'] }, '');
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({});
    });

    it('refuses bad input with a 400 naming the problem', async () => {
      const target = urn('bad');
      const cases: [string, unknown, RegExp][] = [
        ['not-a-trace', { [target]: ['status'] }, /trace id/],
        ['0'.repeat(32), [target], /object/i],
        ['0'.repeat(32), {}, /urn|fewer than 1/i],
        ['0'.repeat(32), { 'not a urn': ['status'] }, /urn/i],
        ['0'.repeat(32), { 'urn:li:nope:x': ['status'] }, /Unknown entity type/],
        ['0'.repeat(32), { [target]: ['noSuchAspect'] }, /Unknown aspect noSuchAspect/],
        ['0'.repeat(32), { [target]: 'status' }, /array|list/i],
      ];
      for (const [traceId, body, message] of cases) {
        const res = await trace(traceId, body);
        expect(res.status, `${traceId} ${JSON.stringify(body)}: ${res.text}`).toBe(400);
        expect(res.text).toMatch(message);
      }
    });

    it('needs read access to every urn: with the All Users view policy off, a user with no role is refused', async () => {
      const target = urn('guarded');
      const traceId = await writeAsync(target, { status: { removed: false } });
      await settled(traceId, { [target]: ['status'] });
      const off = await graphql(
        base,
        `
          mutation ($input: PolicyUpdateInput!) {
            updatePolicy(urn: "urn:li:dataHubPolicy:view-entity-page-all", input: $input)
          }
        `,
        {
          input: {
            type: 'METADATA',
            state: 'INACTIVE',
            name: 'All Users - View Entity Page',
            description: 'Grants entity view to all users',
            privileges: [
              'VIEW_ENTITY_PAGE',
              'SEARCH_PRIVILEGE',
              'GET_ENTITY_PRIVILEGE',
              'GET_TIMELINE_PRIVILEGE',
            ],
            actors: { users: [], resourceOwners: false, allUsers: true, allGroups: false },
          },
        },
        { headers: { Authorization: admin } },
      );
      expect(off.errors).toBeUndefined();
      const body = { [target]: ['status'] };
      const refused = await waitUntil(
        () => trace(traceId, body, 'onlyIncludeErrors=false', noRole),
        (r) => r.status === 403,
        15_000,
      );
      expect(refused.text).not.toContain('ACTIVE_STATE');
      for (const actor of [reader, admin, SYSTEM_CLIENT_AUTHORIZATION]) {
        const allowed = await trace(traceId, body, 'onlyIncludeErrors=false', actor);
        expect(allowed.status, allowed.text).toBe(200);
        expect((allowed.body as TraceAnswer)[target]?.['status']?.primaryStorage.writeStatus).toBe(
          'ACTIVE_STATE',
        );
      }
      const anonymous = await callAs(base, 'POST', `/openapi/v1/trace/write/${traceId}`, undefined, body);
      expect(anonymous.status).toBe(401);
    });

    it('the single-aspect async route echoes the system metadata it submitted', async () => {
      const target = urn('single');
      const res = await fetch(
        `${base}/openapi/v3/entity/dataset/${enc(target)}/status?async=true&systemMetadata=true`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: admin },
          body: JSON.stringify({ value: { removed: false } }),
        },
      );
      expect(res.status).toBe(202);
      const body = (await res.json()) as {
        status: { systemMetadata: { properties: Record<string, string> } };
      };
      const traceId = body.status.systemMetadata.properties['telemetryTraceId']!;
      expect(res.headers.get('traceparent')).toContain(traceId);
      expect(body.status.systemMetadata.properties['eventSource']).toBe('OPENAPI');
      expect((await settled(traceId, { [target]: ['status'] }))[target]?.['status']?.success).toBe(true);
    });
  });
}
