import type { ResourceAttributes, ResourceOverrides, ResourceResolver } from '@catalog/auth';
import type { AspectStore } from '@catalog/store';
import { entityTypeOfUrn } from '../application/access-policy.js';

const RESOURCE_ASPECTS = [
  'ownership',
  'domains',
  'container',
  'globalTags',
  'glossaryTerms',
  'dataPlatformInstance',
] as const;
/** Parent domains are followed this far up (a cycle stops there too). */
const MAX_DOMAIN_DEPTH = 10;

type Value = Readonly<Record<string, unknown>>;

/**
 * The facts policy filters match on, read from the aspect store when a policy needs them (the policy
 * engine asks lazily, so most decisions read nothing).
 */
export class StoreResourceResolver implements ResourceResolver {
  constructor(private readonly store: AspectStore) {}

  async resourceAttributes(urn: string, overrides: ResourceOverrides = {}): Promise<ResourceAttributes> {
    const aspects = new Map(
      (await this.store.getLatest(urn, RESOURCE_ASPECTS)).map((a) => [a.aspect, a.value]),
    );
    const owners = arrayOf(aspects.get('ownership'), 'owners').flatMap((o) => {
      const owner = (o as Value)['owner'];
      const typeUrn = (o as Value)['typeUrn'];
      return typeof owner === 'string'
        ? [{ owner, ...(typeof typeUrn === 'string' ? { typeUrn } : {}) }]
        : [];
    });
    const container = aspects.get('container')?.['container'];
    const instance = aspects.get('dataPlatformInstance')?.['instance'];
    return {
      urn,
      type: entityTypeOfUrn(urn),
      owners,
      domains: await this.withParentDomains(
        overrides.domains ?? stringsOf(aspects.get('domains'), 'domains'),
      ),
      containers: typeof container === 'string' ? [container] : [],
      tags: arrayOf(aspects.get('globalTags'), 'tags').flatMap((t) => stringField(t, 'tag')),
      glossaryTerms: arrayOf(aspects.get('glossaryTerms'), 'terms').flatMap((t) => stringField(t, 'urn')),
      dataPlatformInstances: typeof instance === 'string' ? [instance] : [],
    };
  }

  private async withParentDomains(domains: readonly string[]): Promise<string[]> {
    const all = new Set(domains);
    let frontier = [...domains];
    for (let depth = 0; depth < MAX_DOMAIN_DEPTH && frontier.length > 0; depth++) {
      const found = await this.store.getLatestMany(frontier, ['domainProperties']);
      const next: string[] = [];
      for (const aspects of found.values()) {
        const parent = aspects[0]?.value['parentDomain'];
        if (typeof parent === 'string' && !all.has(parent)) {
          all.add(parent);
          next.push(parent);
        }
      }
      frontier = next;
    }
    return [...all];
  }
}

function arrayOf(value: Value | undefined, field: string): unknown[] {
  const list = value?.[field];
  return Array.isArray(list) ? list : [];
}

function stringsOf(value: Value | undefined, field: string): string[] {
  return arrayOf(value, field).filter((v): v is string => typeof v === 'string');
}

function stringField(item: unknown, field: string): string[] {
  const v = (item as Value | null)?.[field];
  return typeof v === 'string' ? [v] : [];
}
