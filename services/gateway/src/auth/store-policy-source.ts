import type { PolicyInfo, PolicyRecord, PolicySource } from '@catalog/auth';
import type { AspectStore } from '@catalog/store';

/** Every stored `dataHubPolicyInfo`, read from the aspect store in pages (policies are few). */
export class StorePolicySource implements PolicySource {
  constructor(private readonly store: AspectStore) {}

  async listPolicies(): Promise<readonly PolicyRecord[]> {
    const policies: PolicyRecord[] = [];
    let after: string | undefined;
    do {
      const page = await this.store.scan({
        aspect: 'dataHubPolicyInfo',
        urnLike: 'urn:li:dataHubPolicy:%',
        limit: 500,
        ...(after === undefined ? {} : { after }),
      });
      for (const item of page.items) {
        policies.push({ urn: item.urn, info: item.value as unknown as PolicyInfo });
      }
      after = page.next;
    } while (after !== undefined);
    return policies;
  }
}
