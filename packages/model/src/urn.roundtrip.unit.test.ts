import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUrn, parseUrn, urnFromPathSegment, urnToPathSegment, urnToQueryValue } from './urn.js';

const entityType = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,12}$/);

/** A plain part: any characters but the three the grammar reserves, and not blank. */
const plainPart = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
  .filter((s) => !/[(),]/.test(s) && s.trim().length > 0);

/** A part is plain text or a whole URN (possibly composite, possibly nested). */
const { part } = fc.letrec<{ part: string; urn: string }>((tie) => ({
  part: fc.oneof({ depthSize: 'small', withCrossShrink: true }, plainPart, tie('urn')),
  urn: fc
    .tuple(entityType, fc.array(tie('part'), { minLength: 1, maxLength: 4 }))
    .map(([type, parts]) => formatUrn(type, parts)),
}));

describe('URN round trips', () => {
  it('format → parse → format is the identity', () => {
    fc.assert(
      fc.property(entityType, fc.array(part, { minLength: 1, maxLength: 5 }), (type, parts) => {
        const raw = formatUrn(type, parts);
        const parsed = parseUrn(raw);
        expect(parsed.entityType).toBe(type);
        expect(parsed.parts).toEqual(parts);
        expect(parsed.raw).toBe(raw);
        expect(formatUrn(parsed.entityType, parsed.parts)).toBe(raw);
      }),
      { numRuns: 500 },
    );
  });

  it('path segment and query value encodings decode to the same urn, with no reserved character left', () => {
    fc.assert(
      fc.property(entityType, fc.array(part, { minLength: 1, maxLength: 4 }), (type, parts) => {
        const raw = formatUrn(type, parts);
        const segment = urnToPathSegment(raw);
        expect(segment).not.toMatch(/[/?#()&=,:]/);
        expect(urnFromPathSegment(segment)).toBe(raw);
        expect(decodeURIComponent(urnToQueryValue(raw))).toBe(raw);
      }),
      { numRuns: 300 },
    );
  });
});
