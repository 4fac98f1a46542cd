import type { Response } from 'express';
import { stringifyJson } from '@catalog/model';

/**
 * res.json on the app's response prototype, writing bodies with `stringifyJson`: aspect values marked by
 * `withDoubles` carry their integral doubles as `30.0`, as the ecosystem writes them. Other bodies are
 * JSON.stringify's text, as express would write them (the app sets no json spaces, replacer or escape).
 */
export function writeJsonAsTheEcosystem(prototype: Response): void {
  Object.defineProperty(prototype, 'json', {
    configurable: true,
    writable: true,
    value: function (this: Response, body: unknown): Response {
      if (this.get('Content-Type') === undefined) this.set('Content-Type', 'application/json');
      return this.send(stringifyJson(body));
    },
  });
}
