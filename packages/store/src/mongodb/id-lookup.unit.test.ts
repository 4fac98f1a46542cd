import { describe, expect, it } from 'vitest';
import { usesIndex } from './id-lookup.js';

describe('usesIndex', () => {
  it('reads MongoDB index stages as index use and a collection scan as none', () => {
    expect(
      usesIndex({ queryPlanner: { winningPlan: { stage: 'FETCH', inputStage: { stage: 'IXSCAN' } } } }),
    ).toBe(true);
    expect(usesIndex({ queryPlanner: { winningPlan: { stage: 'IDHACK' } } })).toBe(true);
    expect(usesIndex({ queryPlanner: { winningPlan: { stage: 'EXPRESS_IXSCAN' } } })).toBe(true);
    expect(usesIndex({ queryPlanner: { winningPlan: { stage: 'COLLSCAN' } } })).toBe(false);
  });

  it("reads SQLite's SEARCH USING INDEX as index use and SCAN as none (FerretDB on SQLite)", () => {
    const search =
      'id=3 parent=0 notused=0 detail=SEARCH aspects_0e90f586 USING INDEX aspects_0e90f586__id_ (<expr>=?)';
    expect(usesIndex({ queryPlanner: { Plan: [search] } })).toBe(true);
    expect(
      usesIndex({ queryPlanner: { Plan: ['id=2 parent=0 notused=0 detail=SCAN aspects_0e90f586'] } }),
    ).toBe(false);
  });

  it("reads PostgreSQL's index scans as index use and a sequential scan as none (FerretDB on PostgreSQL)", () => {
    expect(usesIndex({ queryPlanner: { Plan: { 'Node Type': 'Index Scan' } } })).toBe(true);
    expect(usesIndex({ queryPlanner: { Plan: { 'Node Type': 'Seq Scan' } } })).toBe(false);
    expect(usesIndex(null)).toBe(false);
  });
});
