import { describe, expect, it } from 'vitest';
import { duplicateJsonKeys } from './duplicate-json-keys.js';

describe('duplicateJsonKeys', () => {
  it('finds a key repeated in one object', () => {
    expect(duplicateJsonKeys('{"component":"gateway","a":1,"component":"auth"}')).toEqual(['component']);
  });

  it('finds a key repeated in a nested object, and not the same key in sibling objects', () => {
    expect(duplicateJsonKeys('{"a":{"b":1,"b":2},"c":[{"b":1},{"b":2}],"b":3}')).toEqual(['b']);
  });

  it('does not take string values, escaped quotes or brackets in strings for keys', () => {
    expect(
      duplicateJsonKeys('{"msg":"a \\"msg\\": {x, y}","list":["msg","msg"],"k":"\\\\","z":{"msg":1}}'),
    ).toEqual([]);
  });

  it('finds a repeated key written with escapes', () => {
    expect(duplicateJsonKeys('{"a":1,"\\u0061":2}')).toEqual(['a']);
  });
});
