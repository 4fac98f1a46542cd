/**
 * The keys that appear more than once in one object of a JSON text (which must be valid JSON: parse
 * it first). JSON.parse keeps the last of a repeated key without a word, so a test that checks log
 * lines by parsing them cannot see one; this scans the text itself.
 */
export function duplicateJsonKeys(json: string): string[] {
  const duplicates: string[] = [];
  // One entry per open object (its keys so far, and whether a key comes next) or array (null).
  const open: ({ keys: Set<string>; keyNext: boolean } | null)[] = [];
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      let end = i + 1;
      while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      const object = open.at(-1);
      if (object?.keyNext) {
        const key = JSON.parse(json.slice(i, end + 1)) as string;
        if (object.keys.has(key)) duplicates.push(key);
        object.keys.add(key);
        object.keyNext = false;
      }
      i = end;
    } else if (c === '{') open.push({ keys: new Set(), keyNext: true });
    else if (c === '[') open.push(null);
    else if (c === '}' || c === ']') open.pop();
    else if (c === ',') {
      const object = open.at(-1);
      if (object) object.keyNext = true;
    }
  }
  return duplicates;
}
