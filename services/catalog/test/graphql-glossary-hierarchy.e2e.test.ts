import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES } from './families.js';
import { graphql, graphqlData } from './graphql-client.js';
import { ingest, logIn, proposal, startTestCatalog, type TestCatalog } from './harness.js';
import { grantPolicy, signUpUser } from './test-users.js';

const MOVE = 'mutation($input: UpdateParentNodeInput!) { updateParentNode(input: $input) }';
const PARENTS = 'query($urn: String!) { glossaryTerm(urn: $urn) { parentNodes { nodes { urn } } } }';

/**
 * `updateParentNode` (the ecosystem's move of a glossary term or node), walked as a user with no role, a
 * user who manages the children of the two nodes concerned, and the admin: a move needs the right to
 * manage the children of the current and of the new parent; a node never moves under its own descendant.
 */
for (const family of FAMILIES) {
  describe.skipIf(family.skip)(`moving glossary entities (${family.name})`, () => {
    let catalog: TestCatalog;
    let base: string;
    let admin: string;
    let noRole: string;
    let steward: string;
    const run = Date.now().toString(36);
    const [root, middle, other] = ['root', 'middle', 'other'].map(
      (n) => `urn:li:glossaryNode:gh_${n}_${run}`,
    );
    const term = `urn:li:glossaryTerm:gh_term_${run}`;

    const move = (authorization: string, resourceUrn: string, parentNode: string | null) =>
      graphql(
        base,
        MOVE,
        { input: { resourceUrn, parentNode } },
        { headers: { Authorization: authorization } },
      );
    const parents = async (urn: string) =>
      (
        await graphqlData<{ glossaryTerm: { parentNodes: { nodes: { urn: string }[] } } }>(
          base,
          PARENTS,
          { urn },
          { headers: { Authorization: admin } },
        )
      ).glossaryTerm.parentNodes.nodes.map((n) => n.urn);

    beforeAll(async () => {
      catalog = await startTestCatalog(family.env());
      base = catalog.baseUrl;
      admin = `Bearer ${await logIn(base)}`;
      noRole = await signUpUser(base, admin, `gh_norole_${run}@example.com`);
      steward = await signUpUser(base, admin, `gh_steward_${run}@example.com`);
      for (const p of [
        proposal(root!, 'glossaryNodeInfo', { definition: 'root', name: 'Root' }),
        proposal(middle!, 'glossaryNodeInfo', { definition: 'middle', name: 'Middle', parentNode: root }),
        proposal(other!, 'glossaryNodeInfo', { definition: 'other', name: 'Other' }),
        proposal(term, 'glossaryTermInfo', {
          definition: 'a term',
          name: 'Term',
          termSource: 'INTERNAL',
          parentNode: middle,
        }),
      ]) {
        const res = await ingest(base, p);
        expect(res.status, res.text).toBe(200);
      }
      // The steward manages the children of the middle and the other node only.
      await grantPolicy(base, admin, {
        privileges: ['MANAGE_GLOSSARY_CHILDREN'],
        users: [`urn:li:corpuser:gh_steward_${run}@example.com`],
        resources: [middle!, other!],
      });
    }, 300_000);
    afterAll(async () => catalog?.dispose());

    it('refuses a user with no role, and the term stays where it was', async () => {
      const res = await move(noRole, term, other!);
      expect(res.errors?.[0]?.message).toMatch(/Unauthorized/);
      expect(await parents(term)).toEqual([middle, root]);
    });

    it('lets a user who manages the children of both nodes move a term between them', async () => {
      const res = await move(steward, term, other!);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      expect(res.data?.['updateParentNode']).toBe(true);
      expect(await parents(term)).toEqual([other]);
    });

    it('refuses that user a move to the root, which needs MANAGE_GLOSSARIES', async () => {
      const res = await move(steward, term, null);
      expect(res.errors?.[0]?.message).toMatch(/Unauthorized/);
      expect(await parents(term)).toEqual([other]);
    });

    it('lets the admin move a node, carrying its terms, and refuses a node under its own descendant', async () => {
      expect((await move(admin, term, middle!)).errors).toBeUndefined();
      expect((await move(admin, middle!, other!)).errors).toBeUndefined();
      expect(await parents(term)).toEqual([middle, other]);
      const cycle = await move(admin, other!, middle!);
      expect(cycle.errors?.[0]?.message).toMatch(/own descendants/);
      expect(await parents(term)).toEqual([middle, other]);
    });

    it('answers bad input with a message naming it and changes nothing', async () => {
      const notANode = await move(admin, term, term);
      expect(notANode.errors?.[0]?.message).toMatch(/not a glossaryNode/);
      const dataset = await move(admin, 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)', other!);
      expect(dataset.errors?.[0]?.message).toMatch(/glossaryTerm or glossaryNode/);
      const missing = await move(admin, `urn:li:glossaryTerm:gh_missing_${run}`, other!);
      expect(missing.errors?.[0]?.message).toMatch(/does not exist/);
      expect(await parents(term)).toEqual([middle, other]);
    });
  });
}
