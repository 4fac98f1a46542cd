import type { RequestContext } from '@catalog/auth';
import { checkProposal, type CheckedProposal } from '@catalog/model';
import { errorOfOutcome } from '../ingest/outcome-error.js';
import type { AccessPolicy } from './access-policy.js';
import type { Proposals } from './proposals.js';

/** One patch of one aspect, as the ecosystem's patchEntity input names it. */
export interface EntityPatchInput {
  readonly urn?: string | null;
  readonly entityType?: string | null;
  readonly aspectName: string;
  readonly patch: readonly {
    readonly op: string;
    readonly path: string;
    readonly value?: string | null;
    readonly from?: string | null;
  }[];
  readonly arrayPrimaryKeys?:
    readonly { readonly arrayField: string; readonly keys: readonly string[] }[] | null;
  readonly forceGenericPatch?: boolean | null;
  readonly systemMetadata?: {
    readonly lastObserved?: number | null;
    readonly runId?: string | null;
    readonly properties?: readonly { readonly key: string; readonly value?: string | null }[] | null;
  } | null;
  readonly headers?: readonly { readonly key: string; readonly value?: string | null }[] | null;
}

/** What happened to one patch: the ecosystem reports failures in the result, not as errors. */
export interface EntityPatchResult {
  readonly urn: string;
  readonly name: string | null;
  readonly success: boolean;
  readonly error: string | null;
}

const EDIT_ENTITY = ['EDIT_ENTITY'];
const UNKNOWN_URN = 'urn:li:unknown:error';

/**
 * The ecosystem's generic patch mutations (patchEntity, patchEntities): each needs EDIT_ENTITY on its
 * entity (and no other entity privilege, as in the ecosystem), then the rules of guarded aspects
 * (restricted aspects, role grants), then goes the write path as any PATCH proposal. A patch's value is JSON text, or a plain string when it is not JSON.
 * A batch is all or nothing: refused or failed, every result says why.
 */
export class EntityPatches {
  constructor(
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async patchOne(ctx: RequestContext, input: EntityPatchInput): Promise<EntityPatchResult> {
    const urn = input.urn ?? UNKNOWN_URN;
    try {
      if (!(await this.mayEdit(ctx, input)))
        return failure(urn, `${ctx.authentication.actorUrn} is unauthorized to update entities.`);
      await this.write(ctx, [proposalOf(input)]);
      return { urn, name: nameOf(input), success: true, error: null };
    } catch (error) {
      return failure(urn, `Failed to apply patch: ${(error as Error).message}`);
    }
  }

  async patchMany(ctx: RequestContext, inputs: readonly EntityPatchInput[]): Promise<EntityPatchResult[]> {
    try {
      for (const input of inputs)
        if (!(await this.mayEdit(ctx, input)))
          throw new Error(
            `${ctx.authentication.actorUrn} is unauthorized to update entity ${input.urn ?? ''}`,
          );
      const proposals = inputs.map((input, i) => {
        try {
          return proposalOf(input);
        } catch (error) {
          throw new Error(`Failed to create MCP for input ${i}: ${(error as Error).message}`);
        }
      });
      await this.write(ctx, proposals);
      return inputs.map((input) => ({
        urn: input.urn ?? UNKNOWN_URN,
        name: nameOf(input),
        success: true,
        error: null,
      }));
    } catch (error) {
      return inputs.map((input) => failure(input.urn ?? UNKNOWN_URN, (error as Error).message));
    }
  }

  private async mayEdit(ctx: RequestContext, input: EntityPatchInput): Promise<boolean> {
    if (typeof input.urn !== 'string' || input.urn === '') return true; // refused when the proposal is built
    return this.policy.holds(ctx, EDIT_ENTITY, { resourceUrn: input.urn });
  }

  private async write(ctx: RequestContext, proposals: readonly CheckedProposal[]): Promise<void> {
    await this.proposals.authorizeGuardedAspects(ctx, proposals);
    const outcomes = await this.proposals.submitDecided(ctx, proposals, { sync: true });
    const failed = outcomes?.find((o) => !o.ok);
    if (failed) throw errorOfOutcome(failed);
  }
}

const failure = (urn: string, error: string): EntityPatchResult => ({
  urn,
  name: null,
  success: false,
  error,
});

/** The name a patch sets (`/name`), which the result echoes. */
function nameOf(input: EntityPatchInput): string | null {
  return input.patch.find((op) => op.path === '/name' && typeof op.value === 'string')?.value ?? null;
}

/** A patch value: JSON text parsed, anything else (and the empty string) as the string itself. */
function valueOf(text: string): unknown {
  if (text === '' || text === '""') return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function proposalOf(input: EntityPatchInput): CheckedProposal {
  if (typeof input.urn !== 'string' || input.urn === '')
    throw new Error(
      'URN must be provided for patch operations. Please provide a valid URN for the entity you want to patch.',
    );
  const entityType = /^urn:li:([^:]+):/.exec(input.urn)?.[1] ?? input.entityType ?? '';
  const patch = input.patch.map((op) => {
    const name = op.op.toLowerCase();
    return {
      op: name,
      path: op.path,
      ...(op.from === undefined || op.from === null ? {} : { from: op.from }),
      ...(name === 'add' || (op.value !== undefined && op.value !== null)
        ? { value: op.value === undefined || op.value === null ? null : valueOf(op.value) }
        : {}),
    };
  });
  const arrayPrimaryKeys = Object.fromEntries(
    (input.arrayPrimaryKeys ?? []).map((k) => [k.arrayField, [...k.keys]]),
  );
  const system = input.systemMetadata;
  return checkProposal({
    entityType,
    entityUrn: input.urn,
    changeType: 'PATCH',
    aspectName: input.aspectName,
    aspect: {
      contentType: 'application/json-patch+json',
      value: JSON.stringify({ patch, arrayPrimaryKeys, forceGenericPatch: input.forceGenericPatch === true }),
    },
    ...(system === undefined || system === null
      ? {}
      : {
          systemMetadata: {
            ...(typeof system.lastObserved === 'number' ? { lastObserved: system.lastObserved } : {}),
            ...(typeof system.runId === 'string' ? { runId: system.runId } : {}),
            ...(system.properties
              ? { properties: Object.fromEntries(system.properties.map((p) => [p.key, p.value ?? ''])) }
              : {}),
          },
        }),
    ...(input.headers
      ? { headers: Object.fromEntries(input.headers.map((h) => [h.key, h.value ?? ''])) }
      : {}),
  });
}
