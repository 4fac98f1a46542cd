import type { ApplyResult, StoredAspect } from '../port.js';

/**
 * The JSON text of an ApplyResult for applied_requests. Values whose JSON text the write path
 * already holds (the stored row's text, the text just written) are spliced in rather than
 * serialized again: on the write path this is the biggest serialization after the row itself.
 */
export class RecordedResultWriter {
  private readonly valueTexts = new WeakMap<StoredAspect, string>();

  /** Remembers the JSON text of `stored.value`; returns `stored` for chaining. */
  knowText(stored: StoredAspect, valueText: string): StoredAspect {
    this.valueTexts.set(stored, valueText);
    return stored;
  }

  toJson(result: ApplyResult): string {
    const { previous, current, keyCreated, removed, ...rest } = result;
    let text = JSON.stringify(rest).slice(0, -1);
    if (previous !== undefined) text += `,"previous":${this.aspectJson(previous)}`;
    if (current !== undefined) text += `,"current":${this.aspectJson(current)}`;
    if (keyCreated !== undefined) text += `,"keyCreated":${this.aspectJson(keyCreated)}`;
    if (removed !== undefined) text += `,"removed":[${removed.map((a) => this.aspectJson(a)).join(',')}]`;
    return `${text}}`;
  }

  private aspectJson(stored: StoredAspect): string {
    const valueText = this.valueTexts.get(stored);
    if (valueText === undefined) return JSON.stringify(stored);
    const { value: _value, ...rest } = stored;
    return `${JSON.stringify(rest).slice(0, -1)},"value":${valueText}}`;
  }
}
