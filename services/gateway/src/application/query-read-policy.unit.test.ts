import { describe, expect, it } from 'vitest';
import { fakeApplicationDeps, graphqlContext, MemoryStore } from './admin-fakes.testing.js';

const ALICE = 'urn:li:corpuser:alice';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const QUERY = 'urn:li:query:q1';
const BOTH = 'urn:li:query:q2';
const FIELD_QUERY = 'urn:li:query:q3';
const ORPHAN = 'urn:li:query:q4';

const subjects = (...entities: string[]) => ({ subjects: entities.map((entity) => ({ entity })) });

function store() {
  return new MemoryStore()
    .put(QUERY, 'querySubjects', subjects(ORDERS))
    .put(BOTH, 'querySubjects', subjects(ORDERS, USERS))
    .put(FIELD_QUERY, 'querySubjects', subjects(`urn:li:schemaField:(${ORDERS},id)`))
    .put(ORPHAN, 'queryProperties', { statement: { value: 'SELECT 1' } });
}

describe('reading a query through the datasets it is about', () => {
  it('is allowed with the view of every subject dataset (a schema field counts as its dataset)', async () => {
    const { policy } = fakeApplicationDeps({ [ALICE]: { [ORDERS]: ['VIEW_ENTITY_PAGE'] } }, store());
    const ctx = graphqlContext(ALICE);
    expect(await policy.mayRead(ctx, QUERY)).toBe(true);
    expect(await policy.mayRead(ctx, FIELD_QUERY)).toBe(true);
    // One subject it may not view hides the query.
    expect(await policy.mayRead(ctx, BOTH)).toBe(false);
    expect(await policy.readable(ctx, [QUERY, BOTH, ORPHAN])).toEqual([QUERY]);
  });

  it('is allowed with EDIT_ENTITY_QUERIES on the subject, and refused with nothing on it', async () => {
    const editor = fakeApplicationDeps({ [ALICE]: { [ORDERS]: ['EDIT_ENTITY_QUERIES'] } }, store());
    expect(await editor.policy.mayRead(graphqlContext(ALICE), QUERY)).toBe(true);
    const nobody = fakeApplicationDeps({}, store());
    expect(await nobody.policy.mayRead(graphqlContext(ALICE), QUERY)).toBe(false);
  });

  it('leaves a query without subjects to the privileges on the query itself', async () => {
    const { policy } = fakeApplicationDeps(
      { [ALICE]: { [ORDERS]: ['VIEW_ENTITY_PAGE'], [ORPHAN]: ['VIEW_ENTITY_PAGE'] } },
      store(),
    );
    expect(await policy.mayRead(graphqlContext(ALICE), ORPHAN)).toBe(true);
    expect(await policy.mayRead(graphqlContext('urn:li:corpuser:bob'), ORPHAN)).toBe(false);
  });
});
