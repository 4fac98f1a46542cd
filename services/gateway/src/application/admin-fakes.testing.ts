import type { RequestContext } from '@catalog/auth';
import type { CheckedProposal } from '@catalog/model';
import type { ProposalOutcome } from '@catalog/runtime';
import type { AspectStore, StoredAspect } from '@catalog/store';
import type { GatewayAuth } from '../auth/gateway-auth.js';
import type { ProposalSubmitter } from '../ingest/proposal-submitter.js';
import { AccessPolicy } from './access-policy.js';
import { Proposals } from './proposals.js';
import { StoredEntities } from './stored-entities.js';

type Json = Record<string, unknown>;

/** A GraphQL request of `actorUrn` (GraphQL always decides privileges). */
export function graphqlContext(actorUrn: string, isSystem = false): RequestContext {
  return {
    authentication: { actorUrn, isSystem },
    origin: { eventSource: 'GRAPHQL', sourceIp: '10.0.0.1', userAgent: 'test' },
  } as unknown as RequestContext;
}

/** One privilege question the fake authorizer was asked. */
export interface Asked {
  readonly actorUrn: string;
  readonly privileges: readonly string[];
  readonly resourceUrn?: string;
}

/** Grants: which privileges an actor holds, platform-wide ('*') or on a resource urn. */
export type Grants = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

/** Stored entities in memory: urn → aspect → value; what the use cases read to decide. */
export class MemoryStore {
  readonly entities = new Map<string, Map<string, Json>>();

  put(urn: string, aspect: string, value: Json): this {
    const aspects = this.entities.get(urn) ?? new Map<string, Json>();
    aspects.set(aspect, value);
    this.entities.set(urn, aspects);
    return this;
  }

  asPort(): AspectStore {
    const stored = (urn: string, aspect: string, value: Json) =>
      ({
        urn,
        aspect,
        version: 0,
        value,
        systemMetadata: null,
        created: { time: 0, actor: '' },
      }) as StoredAspect;
    const port: Partial<AspectStore> = {
      get: async (urn, aspect) => {
        const value = this.entities.get(urn)?.get(aspect);
        return value === undefined ? null : stored(urn, aspect, value);
      },
      existingUrns: async (urns) => new Set(urns.filter((u) => (this.entities.get(u)?.size ?? 0) > 0)),
      getLatest: async (urn, aspects) =>
        [...(this.entities.get(urn) ?? new Map<string, Json>())]
          .filter(([name]) => aspects === undefined || aspects.includes(name))
          .map(([name, value]) => stored(urn, name, value)),
      scan: async (options) => {
        const prefix = (options.urnLike ?? '%').replace(/%$/, '');
        const items = [...this.entities]
          .filter(([urn]) => urn.startsWith(prefix))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .flatMap(([urn, aspects]) => {
            const value = options.aspect === undefined ? undefined : aspects.get(options.aspect);
            return value === undefined ? [] : [stored(urn, options.aspect!, value)];
          });
        return { items };
      },
    };
    return port as AspectStore;
  }
}

/** Whether the fake authorizer allows a question: from grants, or a function deciding each. */
function allows(grants: Grants | ((asked: Asked) => boolean), request: Asked): boolean {
  if (typeof grants === 'function') return grants(request);
  const held = grants[request.actorUrn] ?? {};
  const scopes = ['*', ...(request.resourceUrn === undefined ? [] : [request.resourceUrn])];
  return scopes.some((scope) => (held[scope] ?? []).some((p) => request.privileges.includes(p)));
}

/**
 * The application's policy and proposals over fakes: records what was asked and what was written, and
 * applies whole-value writes and deletes to the memory store (patches are only recorded).
 */
export function fakeApplicationDeps(
  grants: Grants | ((asked: Asked) => boolean) = {},
  store = new MemoryStore(),
) {
  const asked: Asked[] = [];
  const written: CheckedProposal[] = [];
  const auth = {
    settings: { restApiAuthorization: false },
    authorizer: {
      isAllowed: async (request: Asked) => {
        asked.push(request);
        return allows(grants, request);
      },
    },
  } as unknown as GatewayAuth;
  const submitter = {
    submit: async (proposals: readonly CheckedProposal[]) => {
      written.push(...proposals);
      for (const p of proposals) {
        if (p.changeType === 'DELETE' && p.aspect.name === p.entity.keyAspect)
          store.entities.delete(p.urn.raw);
        else if (p.changeType === 'DELETE') store.entities.get(p.urn.raw)?.delete(p.aspect.name);
        else if (p.value !== undefined) store.put(p.urn.raw, p.aspect.name, p.value);
      }
      return proposals.map((p): ProposalOutcome => ({
        requestId: 'r',
        ok: true,
        urn: p.urn.raw,
        aspectName: p.aspect.name,
      }));
    },
  } as unknown as ProposalSubmitter;
  const port = store.asPort();
  const policy = new AccessPolicy(auth, port);
  const proposals = new Proposals(port, submitter, policy);
  return { asked, written, policy, proposals, stored: new StoredEntities(port), store };
}

/** What was written, as `urn aspect changeType` lines. */
export function writesOf(written: readonly CheckedProposal[]): string[] {
  return written.map((p) => `${p.urn.raw} ${p.aspect.name} ${p.changeType}`);
}
