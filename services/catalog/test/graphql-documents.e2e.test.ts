import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, type GraphQLResponse } from './graphql-client.js';
import {
  datasetUrn,
  enc,
  get,
  logIn,
  proposal,
  ingest,
  startTestCatalog,
  waitUntil,
  type TestCatalog,
} from './harness.js';
import { signUpUser } from './test-users.js';

/**
 * The documents (knowledge base) and lifecycle stages of GraphQL, as the ecosystem's documents.graphql
 * and lifecycle.graphql define them, on each family: documents created, edited, moved, published and
 * deleted; their hierarchy and change history; the document search's visibility rules and filters; the
 * documents of an asset; lifecycle stages listed and set. Walked as a user with no role, a Reader and an
 * admin.
 */

const bearer = (token: string) => `Bearer ${token}`;

const CREATE = 'mutation($input: CreateDocumentInput!) { createDocument(input: $input) }';
const CONTENTS = 'mutation($input: UpdateDocumentContentsInput!) { updateDocumentContents(input: $input) }';
const STATUS = 'mutation($input: UpdateDocumentStatusInput!) { updateDocumentStatus(input: $input) }';
const MOVE = 'mutation($input: MoveDocumentInput!) { moveDocument(input: $input) }';
const RELATED =
  'mutation($input: UpdateDocumentRelatedEntitiesInput!) { updateDocumentRelatedEntities(input: $input) }';
const SUBTYPE = 'mutation($input: UpdateDocumentSubTypeInput!) { updateDocumentSubType(input: $input) }';
const SETTINGS = 'mutation($input: UpdateDocumentSettingsInput!) { updateDocumentSettings(input: $input) }';
const DELETE = 'mutation($urn: String!) { deleteDocument(urn: $urn) }';
const READ = `query($urn: String!) {
  document(urn: $urn) {
    urn type subType exists platform { urn }
    settings { showInGlobalContext }
    ownership { owners { owner { ... on CorpUser { urn } } type } }
    info {
      title source { sourceType } status { state } contents { text }
      created { time actor { urn } } lastModified { time actor { urn } }
      relatedAssets { asset { urn type } }
      relatedDocuments { document { urn info { title } } }
      parentDocument { document { urn info { title } } }
    }
    parentDocuments { count documents { urn } }
  }
}`;
const HISTORY = `query($urn: String!, $start: Long, $end: Long, $limit: Int) {
  document(urn: $urn) {
    changeHistory(startTimeMillis: $start, endTimeMillis: $end, limit: $limit) {
      changeType description actor { urn } timestamp details { key value }
    }
  }
}`;
const SEARCH = `query($input: SearchDocumentsInput!) {
  searchDocuments(input: $input) { start count total documents { urn } facets { field } }
}`;
const ACROSS = `query($q: String!) {
  searchAcrossEntities(input: { types: [DOCUMENT], query: $q, count: 100 }) { searchResults { entity { urn } } }
}`;
const ASSET_DOCS = `query($urn: String!, $input: RelatedDocumentsInput!) {
  dataset(urn: $urn) { relatedDocuments(input: $input) { total documents { urn settings { showInGlobalContext } } } }
}`;
const STAGES =
  '{ listLifecycleStages { urn name description entityTypes hideInSearch allowedPreviousStages } }';
const SET_STAGE =
  'mutation($urn: String!, $stage: String) { setLifecycleStage(urn: $urn, lifecycleStageUrn: $stage) }';

interface Doc {
  urn: string;
  type: string;
  subType: string | null;
  exists: boolean | null;
  platform: { urn: string };
  settings: { showInGlobalContext: boolean } | null;
  ownership: { owners: { owner: { urn: string }; type: string }[] } | null;
  info: {
    title: string | null;
    source: { sourceType: string } | null;
    status: { state: string } | null;
    contents: { text: string };
    created: { time: number; actor: { urn: string } | null };
    lastModified: { time: number; actor: { urn: string } | null };
    relatedAssets: { asset: { urn: string; type: string } }[] | null;
    relatedDocuments: { document: { urn: string; info: { title: string } } }[] | null;
    parentDocument: { document: { urn: string; info: { title: string } } } | null;
  } | null;
  parentDocuments: { count: number; documents: { urn: string }[] };
}

interface Change {
  changeType: string;
  description: string;
  actor: { urn: string } | null;
  timestamp: number;
  details: { key: string; value: string }[] | null;
}

for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`GraphQL documents and lifecycle stages (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let reader: string;
    const run = Date.now().toString(36);
    const readerUrn = `urn:li:corpuser:docreader_${run}@example.com`;
    const dataset = datasetUrn(`documents_${run}`);
    let seq = 0;

    const ask = (authorization: string, query: string, variables: Record<string, unknown> = {}) =>
      graphql(base, query, variables, { headers: { Authorization: authorization } });

    async function ok<T>(authorization: string, query: string, variables: Record<string, unknown> = {}) {
      const res = await ask(authorization, query, variables);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data as T;
    }

    /** The single error of a request that must fail, and its code. */
    async function refused(authorization: string, query: string, variables: Record<string, unknown>) {
      const res = await ask(authorization, query, variables);
      expect(res.errors, JSON.stringify(res.data)).toHaveLength(1);
      return { message: res.errors![0]!.message, code: res.errors![0]!.extensions?.['code'] };
    }

    async function create(input: Record<string, unknown>, as = admin): Promise<string> {
      seq += 1;
      const data = await ok<{ createDocument: string }>(as, CREATE, {
        input: { id: `doc-${run}-${seq}`, contents: { text: `text ${seq}` }, ...input },
      });
      return data.createDocument;
    }

    const read = async (urn: string, as = admin) =>
      (await ok<{ document: Doc | null }>(as, READ, { urn })).document;
    const history = async (urn: string, vars: Record<string, unknown> = {}) =>
      (await ok<{ document: { changeHistory: Change[] } }>(admin, HISTORY, { urn, ...vars })).document
        .changeHistory;
    const searchUrns = async (input: Record<string, unknown>, as = admin) =>
      (
        await ok<{ searchDocuments: { documents: { urn: string }[] } }>(as, SEARCH, { input })
      ).searchDocuments.documents.map((d) => d.urn);
    const acrossUrns = async (q: string, as = admin) =>
      (
        await ok<{ searchAcrossEntities: { searchResults: { entity: { urn: string } }[] } }>(as, ACROSS, {
          q,
        })
      ).searchAcrossEntities.searchResults.map((r) => r.entity.urn);

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = bearer(await logIn(base));
      noRole = await signUpUser(base, admin, `docnorole_${run}@example.com`);
      reader = await signUpUser(base, admin, `docreader_${run}@example.com`, 'Reader');
      const written = await ingest(base, proposal(dataset, 'datasetProperties', { name: 'documented' }));
      expect(written.status, written.text).toBe(200);
    }, 300_000);
    afterAll(async () => {
      await catalog?.dispose();
    });

    it('creates a document as the ecosystem does: NATIVE, UNPUBLISHED, shown globally, owned by its creator, on the DataHub platform', async () => {
      const urn = await create({ title: 'Runbook', subType: 'runbook' });
      expect(urn).toBe(`urn:li:document:doc-${run}-${seq}`);
      const doc = (await read(urn))!;
      expect(doc).toMatchObject({
        urn,
        type: 'DOCUMENT',
        subType: 'runbook',
        platform: { urn: 'urn:li:dataPlatform:datahub' },
        settings: { showInGlobalContext: true },
        ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:datahub' }, type: 'TECHNICAL_OWNER' }] },
        info: {
          title: 'Runbook',
          source: { sourceType: 'NATIVE' },
          status: { state: 'UNPUBLISHED' },
          contents: { text: `text ${seq}` },
          created: { actor: { urn: 'urn:li:corpuser:datahub' } },
          relatedAssets: null,
          parentDocument: null,
        },
        parentDocuments: { count: 0, documents: [] },
      });
      expect(doc.info!.lastModified.time).toBe(doc.info!.created.time);
      // Given owners replace the creator; given settings are kept.
      const owned = await create({
        owners: [{ ownerUrn: readerUrn, ownerEntityType: 'CORP_USER', type: 'BUSINESS_OWNER' }],
        settings: { showInGlobalContext: false },
        state: 'PUBLISHED',
      });
      expect(await read(owned)).toMatchObject({
        settings: { showInGlobalContext: false },
        ownership: { owners: [{ owner: { urn: readerUrn }, type: 'BUSINESS_OWNER' }] },
        info: { status: { state: 'PUBLISHED' } },
      });
    });

    it('shows when an ingestion run last saw a document, and nothing for one written outside a run', async () => {
      const ingested = `urn:li:document:ingested-${run}`;
      const stamp = { time: 1, actor: 'urn:li:corpuser:datahub' };
      const value = {
        title: 'From elsewhere',
        source: { sourceType: 'EXTERNAL', externalUrl: 'https://wiki.example.com/x' },
        status: { state: 'PUBLISHED' },
        contents: { text: 'x' },
        created: stamp,
        lastModified: stamp,
      };
      const written = await ingest(
        base,
        proposal(ingested, 'documentInfo', value, {
          systemMetadata: { runId: `run-${run}`, lastObserved: 1_700_000_000_000 },
        }),
      );
      expect(written.status, written.text).toBe(200);
      const last = await ok<{
        document: { lastIngested: number | null; info: { source: Record<string, unknown> } };
      }>(
        admin,
        'query($urn: String!) { document(urn: $urn) { lastIngested info { source { sourceType externalUrl externalId } } } }',
        { urn: ingested },
      );
      expect(last.document).toEqual({
        lastIngested: 1_700_000_000_000,
        info: {
          source: { sourceType: 'EXTERNAL', externalUrl: 'https://wiki.example.com/x', externalId: null },
        },
      });
      const native = await create({ title: 'Native' });
      const none = await ok<{ document: { lastIngested: number | null } }>(
        admin,
        'query($urn: String!) { document(urn: $urn) { lastIngested } }',
        { urn: native },
      );
      expect(none.document.lastIngested).toBeNull();
    });

    it('refuses a taken id, an unknown parent and a malformed related urn, creating nothing', async () => {
      const urn = await create({ title: 'Taken' });
      const id = urn.slice('urn:li:document:'.length);
      expect(
        (await refused(admin, CREATE, { input: { id, contents: { text: 'again' } } })).message,
      ).toContain('already exists');
      expect((await read(urn))!.info!.title).toBe('Taken');
      for (const input of [
        {
          id: `bad-parent-${run}`,
          contents: { text: 'x' },
          parentDocument: `urn:li:document:missing-${run}`,
        },
        { id: `bad-related-${run}`, contents: { text: 'x' }, relatedAssets: ['not a urn'] },
      ]) {
        const error = await refused(admin, CREATE, { input });
        expect(error.code, error.message).toBe(400);
        expect(await read(`urn:li:document:${input.id}`)).toBeNull();
      }
    });

    it('edits contents, status, sub-type, settings and related entities, each advancing lastModified, and lists each change newest first', async () => {
      const other = await create({ title: 'Other' });
      const urn = await create({ title: 'Draft notes' });
      const created = (await read(urn))!.info!.created.time;
      await ok(admin, CONTENTS, { input: { urn, title: 'Notes', contents: { text: 'new text' } } });
      await ok(admin, STATUS, { input: { urn, state: 'PUBLISHED' } });
      await ok(admin, SUBTYPE, { input: { urn, subType: 'faq' } });
      await ok(admin, SETTINGS, { input: { urn, showInGlobalContext: false } });
      await ok(admin, RELATED, { input: { urn, relatedAssets: [dataset], relatedDocuments: [other] } });
      const doc = (await read(urn))!;
      expect(doc).toMatchObject({
        subType: 'faq',
        settings: { showInGlobalContext: false },
        info: {
          title: 'Notes',
          contents: { text: 'new text' },
          status: { state: 'PUBLISHED' },
          relatedAssets: [{ asset: { urn: dataset, type: 'DATASET' } }],
          relatedDocuments: [{ document: { urn: other, info: { title: 'Other' } } }],
          lastModified: { actor: { urn: 'urn:li:corpuser:datahub' } },
        },
      });
      expect(doc.info!.lastModified.time).toBeGreaterThanOrEqual(created);
      await ok(admin, SUBTYPE, { input: { urn, subType: null } });
      await ok(admin, RELATED, { input: { urn, relatedDocuments: [] } });
      const cleared = (await read(urn))!;
      expect(cleared.subType).toBeNull();
      expect(cleared.info!.relatedDocuments).toBeNull();
      expect(cleared.info!.relatedAssets).toHaveLength(1);

      const changes = await history(urn);
      expect(changes.map((c) => c.changeType)).toEqual(
        expect.arrayContaining([
          'CREATED',
          'TITLE_CHANGED',
          'TEXT_CHANGED',
          'STATE_CHANGED',
          'RELATED_ASSETS_CHANGED',
        ]),
      );
      expect(changes.filter((c) => c.changeType === 'RELATED_DOCUMENTS_CHANGED')).toHaveLength(2);
      const times = changes.map((c) => c.timestamp);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(changes.at(-1)).toMatchObject({
        changeType: 'CREATED',
        description: "Document 'Draft notes' was created",
        actor: { urn: 'urn:li:corpuser:datahub' },
      });
      expect(changes.find((c) => c.changeType === 'STATE_CHANGED')!.details).toEqual([
        { key: 'oldState', value: 'UNPUBLISHED' },
        { key: 'newState', value: 'PUBLISHED' },
      ]);
      expect(await history(urn, { limit: 2 })).toHaveLength(2);
      const future = Date.now() + 365 * 24 * 3600 * 1000;
      expect(await history(urn, { start: future, end: future + 1000 })).toEqual([]);
    });

    it('moves documents into a hierarchy, answers its parents up to the root, and refuses a move into itself or its own subtree', async () => {
      const top = await create({ title: 'Top' });
      const middle = await create({ title: 'Middle' });
      const leaf = await create({ title: 'Leaf' });
      await ok(admin, MOVE, { input: { urn: middle, parentDocument: top } });
      await ok(admin, MOVE, { input: { urn: leaf, parentDocument: middle } });
      const doc = (await read(leaf))!;
      expect(doc.info!.parentDocument).toEqual({ document: { urn: middle, info: { title: 'Middle' } } });
      expect(doc.parentDocuments).toEqual({ count: 2, documents: [{ urn: middle }, { urn: top }] });
      for (const parentDocument of [top, leaf]) {
        const error = await refused(admin, MOVE, {
          input: { urn: parentDocument === top ? top : leaf, parentDocument },
        });
        expect(error.code, error.message).toBe(400);
      }
      expect((await refused(admin, MOVE, { input: { urn: top, parentDocument: leaf } })).message).toContain(
        'circular',
      );
      expect((await read(top))!.info!.parentDocument).toBeNull();
      await ok(admin, MOVE, { input: { urn: leaf, parentDocument: null } });
      expect((await read(leaf))!.parentDocuments.count).toBe(0);
      const moves = (await history(leaf)).filter((c) => c.changeType === 'PARENT_CHANGED');
      expect(moves.map((c) => c.description)).toEqual([
        'Document moved to root level (no parent)',
        `Document moved to parent ${middle}`,
      ]);
    });

    it('searches documents: published for everyone, unpublished for owners, context-only ones only beside their asset, with parent, root and type filters', async () => {
      const tag = `srch${run}`;
      const parent = await create({ title: `${tag} parent`, subType: 'faq', state: 'PUBLISHED' });
      const child = await create({
        title: `${tag} child`,
        subType: 'guide',
        state: 'PUBLISHED',
        parentDocument: parent,
      });
      const mine = await create({ title: `${tag} unpublished` });
      const hidden = await create({
        title: `${tag} context`,
        state: 'PUBLISHED',
        settings: { showInGlobalContext: false },
        relatedAssets: [dataset],
      });
      expect(new Set(await searchUrns({ query: tag }))).toEqual(new Set([parent, child, mine]));
      expect(await searchUrns({ query: tag }, reader)).not.toContain(mine);
      expect(await searchUrns({ query: tag, states: ['UNPUBLISHED'] })).toEqual([mine]);
      expect(await searchUrns({ parentDocuments: [parent] })).toEqual([child]);
      expect(await searchUrns({ query: tag, rootOnly: true })).not.toContain(child);
      expect(await searchUrns({ query: tag, types: ['faq'] })).toEqual([parent]);
      // Across entity types: unpublished documents are left out (but for document managers), and context-only
      // ones for everyone.
      expect(new Set(await acrossUrns(tag, reader))).toEqual(new Set([parent, child]));
      expect(new Set(await acrossUrns(tag))).toEqual(new Set([parent, child, mine]));
      const related = await ok<{
        dataset: { relatedDocuments: { total: number; documents: { urn: string }[] } };
      }>(admin, ASSET_DOCS, { urn: dataset, input: { rootOnly: true } });
      expect(related.dataset.relatedDocuments.documents.map((d) => d.urn)).toContain(hidden);
      // A deleted document is found nowhere.
      await ok(admin, DELETE, { urn: child });
      expect((await read(child))!.exists).toBe(false);
      expect(await searchUrns({ query: tag })).not.toContain(child);
    });

    it('lists lifecycle stages, sets and clears one on a document, hides a document in a stage from searches across types, and refuses a stage for another type', async () => {
      const stage = `urn:li:lifecycleStageType:review_${run}`;
      const stamp = { time: 0, actor: 'urn:li:corpuser:datahub' };
      const info = {
        name: 'In review',
        entityTypes: ['document'],
        settings: { hideInSearch: true },
        created: stamp,
        lastModified: stamp,
      };
      expect((await ingest(base, proposal(stage, 'lifecycleStageTypeInfo', info))).status).toBe(200);
      const datasetsOnly = `urn:li:lifecycleStageType:datasets_${run}`;
      expect(
        (
          await ingest(
            base,
            proposal(datasetsOnly, 'lifecycleStageTypeInfo', {
              ...info,
              name: 'Datasets',
              entityTypes: ['dataset'],
            }),
          )
        ).status,
      ).toBe(200);
      const stages = (await ok<{ listLifecycleStages: Record<string, unknown>[] }>(admin, STAGES))
        .listLifecycleStages;
      expect(stages).toContainEqual({
        urn: stage,
        name: 'In review',
        description: null,
        entityTypes: ['document'],
        hideInSearch: true,
        allowedPreviousStages: null,
      });
      const tag = `stage${run}`;
      const urn = await create({ title: `${tag} doc`, state: 'PUBLISHED' });
      expect(await acrossUrns(tag)).toEqual([urn]);
      await ok(admin, SET_STAGE, { urn, stage });
      const status = await ok<{
        entity: { status: { removed: boolean; lifecycleStage: { urn: string; name: string } } };
      }>(
        admin,
        '{ entity(urn: "' +
          urn +
          '") { ... on Document { status { removed lifecycleStage { urn name } lifecycleLastUpdated { actor } } } } }',
      );
      expect(status.entity.status).toMatchObject({
        removed: false,
        lifecycleStage: { urn: stage, name: 'In review' },
      });
      await waitUntil(
        () => acrossUrns(tag),
        (urns) => urns.length === 0,
        15_000,
      );
      // Its owner still finds it in the document search; a stage other than PUBLISHED is not for everyone.
      expect(await searchUrns({ query: tag })).toEqual([urn]);
      expect(await searchUrns({ query: tag }, reader)).toEqual([]);
      const error = await refused(admin, SET_STAGE, { urn, stage: datasetsOnly });
      expect(error.code, error.message).toBe(400);
      // A stage entered only from another one refuses the move from this one.
      const gated = `urn:li:lifecycleStageType:gated_${run}`;
      const gatedInfo = {
        ...info,
        name: 'Gated',
        transitionPolicy: { allowedPreviousStages: [datasetsOnly] },
      };
      expect((await ingest(base, proposal(gated, 'lifecycleStageTypeInfo', gatedInfo))).status).toBe(200);
      expect((await refused(admin, SET_STAGE, { urn, stage: gated })).message).toContain('not allowed');
      await ok(admin, SET_STAGE, { urn, stage: null });
      await waitUntil(
        () => acrossUrns(tag),
        (urns) => urns.length === 1,
        15_000,
      );

      // Any entity in a stage that hides it is left out of searches across types, unless asked for.
      const hiddenForAll = `urn:li:lifecycleStageType:hidden_${run}`;
      expect(
        (
          await ingest(
            base,
            proposal(hiddenForAll, 'lifecycleStageTypeInfo', { ...info, name: 'Hidden', entityTypes: null }),
          )
        ).status,
      ).toBe(200);
      const table = datasetUrn(`staged_${run}`);
      expect(
        (await ingest(base, proposal(table, 'datasetProperties', { name: `staged ${run}` }))).status,
      ).toBe(200);
      const datasets = (flags: Record<string, unknown>) =>
        ok<{ searchAcrossEntities: { searchResults: { entity: { urn: string } }[] } }>(
          admin,
          'query($flags: SearchFlags) { searchAcrossEntities(input: { types: [DATASET], query: "*", count: 1000, searchFlags: $flags }) { searchResults { entity { urn } } } }',
          { flags },
        ).then((d) => d.searchAcrossEntities.searchResults.map((r) => r.entity.urn));
      await waitUntil(
        () => datasets({}),
        (urns) => urns.includes(table),
        15_000,
      );
      await ok(admin, SET_STAGE, { urn: table, stage: hiddenForAll });
      await waitUntil(
        () => datasets({}),
        (urns) => !urns.includes(table),
        20_000,
      );
      expect(await datasets({ includeHiddenLifecycleStages: true })).toContain(table);
    });

    it('a user with no role and a Reader may not create, edit, move or delete documents; a Reader reads published ones; neither sees unpublished ones', async () => {
      const tag = `walk${run}`;
      const published = await create({ title: `${tag} published`, state: 'PUBLISHED' });
      const unpublished = await create({ title: `${tag} unpublished` });
      for (const [who, as] of [
        ['no role', noRole],
        ['reader', reader],
      ] as const) {
        for (const [query, variables] of [
          [CREATE, { input: { id: `${who}-${run}`, contents: { text: 'x' } } }],
          [CONTENTS, { input: { urn: published, title: 'changed' } }],
          [STATUS, { input: { urn: unpublished, state: 'PUBLISHED' } }],
          [MOVE, { input: { urn: unpublished, parentDocument: published } }],
          [SETTINGS, { input: { urn: published, showInGlobalContext: false } }],
          [DELETE, { urn: published }],
          [SET_STAGE, { urn: published, stage: null }],
        ] as const) {
          const error = await refused(as, query, variables);
          expect(error.code, `${who}: ${error.message}`).toBe(403);
        }
        expect(await searchUrns({ query: tag }, as)).not.toContain(unpublished);
      }
      expect(await read(`urn:li:document:reader-${run}`)).toBeNull();
      expect((await read(published))!.info).toMatchObject({
        title: `${tag} published`,
        status: { state: 'PUBLISHED' },
      });
      expect((await read(published, reader))!.info!.title).toBe(`${tag} published`);
      expect(await searchUrns({ query: tag }, reader)).toEqual([published]);
      expect(await searchUrns({ query: tag }, noRole)).toEqual([published]);
      expect((await history(published)).length).toBeGreaterThan(0);

      // Without the policy that lets every user read, a user with no role reads nothing of documents.
      const policyUrn = 'urn:li:dataHubPolicy:view-entity-page-all';
      const stored = await get(base, `/aspects/${enc(policyUrn)}?aspect=dataHubPolicyInfo&version=0`);
      expect(stored.status, stored.text).toBe(200);
      const policy = (stored.body as { aspect: Record<string, Record<string, unknown>> }).aspect;
      const [policyKey] = Object.keys(policy);
      const written = await ingest(
        base,
        proposal(policyUrn, 'dataHubPolicyInfo', { ...policy[policyKey!], state: 'INACTIVE' }),
      );
      expect(written.status, written.text).toBe(200);
      await waitUntil(
        () => read(published, noRole),
        (doc) => doc?.info === null,
        15_000,
      );
      expect(await searchUrns({ query: tag }, noRole)).toEqual([]);
      expect((await refused(noRole, HISTORY, { urn: published })).code).toBe(403);
      expect((await read(published, reader))!.info!.title).toBe(`${tag} published`);
      const stages = await ask(noRole, STAGES);
      expect(stages.errors).toBeUndefined();
      expect((stages.data as { listLifecycleStages: unknown[] }).listLifecycleStages).toEqual([]);
      await ingest(base, proposal(policyUrn, 'dataHubPolicyInfo', policy[policyKey!]));
    });

    it('imports documents from files for document managers only: published, named from the file, updated on a re-import', async () => {
      const IMPORT = `mutation($input: ImportDocumentsFromFilesInput!) {
        importDocumentsFromFiles(input: $input) { createdCount updatedCount failedCount errors documentUrns }
      }`;
      const parent = await create({ title: 'Imports' });
      const input = {
        documents: [
          { fileName: `on-call_${run}.md`, content: '# On call' },
          { fileName: 'empty.txt', content: '  ' },
        ],
        useCase: 'SKILL',
        showInGlobalContext: false,
        parentDocumentUrn: parent,
      };
      const first = await ok<{
        importDocumentsFromFiles: { createdCount: number; updatedCount: number; documentUrns: string[] };
      }>(admin, IMPORT, { input });
      expect(first.importDocumentsFromFiles).toMatchObject({ createdCount: 1, updatedCount: 0 });
      const [urn] = first.importDocumentsFromFiles.documentUrns;
      expect(await read(urn!)).toMatchObject({
        subType: 'SKILL',
        settings: { showInGlobalContext: false },
        info: {
          title: `On Call ${run.charAt(0).toUpperCase()}${run.slice(1)}`,
          status: { state: 'PUBLISHED' },
          contents: { text: '# On call' },
          parentDocument: { document: { urn: parent } },
        },
      });
      const again = await ok<{
        importDocumentsFromFiles: { createdCount: number; updatedCount: number; documentUrns: string[] };
      }>(admin, IMPORT, { input: { documents: [{ fileName: `on-call_${run}.md`, content: 'changed' }] } });
      expect(again.importDocumentsFromFiles).toMatchObject({
        createdCount: 0,
        updatedCount: 1,
        documentUrns: [urn],
      });
      expect((await read(urn!))!.info!.contents.text).toBe('changed');
      for (const as of [noRole, reader]) expect((await refused(as, IMPORT, { input })).code).toBe(403);
      const missing = await refused(admin, IMPORT, {
        input: { ...input, parentDocumentUrn: `urn:li:document:gone-${run}` },
      });
      expect(missing.code).toBe(400);
    });

    it('refuses malformed input with a 400 naming it', async () => {
      const cases: [string, Record<string, unknown>][] = [
        [CONTENTS, { input: { urn: 'urn:li:dataset:not-a-document', title: 'x' } }],
        [STATUS, { input: { urn: `urn:li:document:absent-${run}`, state: 'PUBLISHED' } }],
        [SET_STAGE, { urn: `urn:li:document:absent-${run}`, stage: null }],
        [SET_STAGE, { urn: dataset, stage: 'urn:li:tag:not-a-stage' }],
      ];
      for (const [query, variables] of cases) {
        const res: GraphQLResponse = await ask(admin, query, variables);
        expect(res.errors?.[0]?.extensions?.['code'], JSON.stringify(res.errors)).toBe(400);
      }
    });
  });
}
