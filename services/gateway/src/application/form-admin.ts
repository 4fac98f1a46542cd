import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { requireAnyOf } from './admin-privileges.js';
import { writeDecided, type AspectChange } from './aspect-changes.js';
import { requireEntityUrn, requireUrnOf } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

const MANAGE_FORMS = ['MANAGE_DOCUMENTATION_FORMS'] as const;
const ASSIGN_FORMS = ['MANAGE_DOCUMENTATION_FORMS', 'EDIT_ENTITY'] as const;

export interface CreateFormInput {
  readonly id?: string | null;
  readonly name: string;
  readonly description?: string | null;
  readonly type?: 'COMPLETION' | 'VERIFICATION' | null;
  readonly prompts?:
    | readonly {
        readonly id?: string | null;
        readonly title: string;
        readonly description?: string | null;
        readonly type: string;
        readonly structuredPropertyParams?: { readonly urn: string } | null;
        readonly required?: boolean | null;
      }[]
    | null;
  readonly actors?: {
    readonly owners?: boolean | null;
    readonly ownershipTypes?: readonly string[] | null;
    readonly users?: readonly string[] | null;
    readonly groups?: readonly string[] | null;
  } | null;
}

type Json = Record<string, unknown>;
interface FormsAspect {
  readonly incompleteForms?: readonly Json[];
  readonly completedForms?: readonly Json[];
  readonly verifications?: readonly Json[];
}

/**
 * Documentation forms: creating one takes MANAGE_DOCUMENTATION_FORMS; assigning a form to assets or
 * removing it takes that, or EDIT_ENTITY on every asset (whose `forms` aspect changes), asked first.
 * Every asset must exist (the refusal names all that do not) and the form too; an asset holding the
 * form already keeps it as it is, and removal touches only the named form.
 */
export class FormAdmin {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  async create(ctx: RequestContext, input: CreateFormInput): Promise<string> {
    await requireAnyOf(this.policy, ctx, MANAGE_FORMS, {
      message: 'Unable to create form. Please contact your admin.',
    });
    const urn = requireUrnOf(`urn:li:form:${input.id ?? randomUUID()}`, ['form'], 'id').urn;
    if (await this.stored.exists(urn)) throw new ValidationError(`Form ${urn} already exists`);
    for (const prompt of input.prompts ?? [])
      if (prompt.structuredPropertyParams && !(await this.stored.exists(prompt.structuredPropertyParams.urn)))
        throw new ValidationError(
          `Structured property ${prompt.structuredPropertyParams.urn} does not exist`,
        );
    const actors = input.actors ?? {};
    const info = {
      name: input.name,
      ...(typeof input.description === 'string' ? { description: input.description } : {}),
      type: input.type ?? 'COMPLETION',
      prompts: (input.prompts ?? []).map((p) => ({
        id: p.id ?? randomUUID(),
        title: p.title,
        ...(typeof p.description === 'string' ? { description: p.description } : {}),
        type: p.type,
        ...(p.structuredPropertyParams
          ? { structuredPropertyParams: { urn: p.structuredPropertyParams.urn } }
          : {}),
        required: p.required ?? false,
      })),
      actors: {
        owners: actors.owners ?? true,
        ...(actors.ownershipTypes ? { ownershipTypes: [...actors.ownershipTypes] } : {}),
        ...(actors.users ? { users: [...actors.users] } : {}),
        ...(actors.groups ? { groups: [...actors.groups] } : {}),
      },
    };
    await writeDecided(this.proposals, ctx, [{ urn, entityType: 'form', aspect: 'formInfo', value: info }]);
    return urn;
  }

  /** Assigns the form to every asset (incomplete until answered); an asset holding it keeps it. */
  async assign(ctx: RequestContext, formUrn: string, entityUrns: readonly string[]): Promise<void> {
    await this.change(ctx, formUrn, entityUrns, (forms) => {
      const holds = [...(forms.incompleteForms ?? []), ...(forms.completedForms ?? [])].some(
        (a) => a['urn'] === formUrn,
      );
      if (holds) return undefined;
      return {
        ...forms,
        incompleteForms: [
          ...(forms.incompleteForms ?? []),
          { urn: formUrn, incompletePrompts: [], completedPrompts: [] },
        ],
        completedForms: forms.completedForms ?? [],
      };
    });
  }

  /** Removes the form (and its verification) from every asset; others stay. */
  async remove(ctx: RequestContext, formUrn: string, entityUrns: readonly string[]): Promise<void> {
    await this.change(ctx, formUrn, entityUrns, (forms) => {
      const other = (a: Json) => a['urn'] !== formUrn && a['form'] !== formUrn;
      const all = [
        ...(forms.incompleteForms ?? []),
        ...(forms.completedForms ?? []),
        ...(forms.verifications ?? []),
      ];
      if (all.every(other)) return undefined;
      return {
        ...forms,
        incompleteForms: (forms.incompleteForms ?? []).filter(other),
        completedForms: (forms.completedForms ?? []).filter(other),
        ...(forms.verifications ? { verifications: forms.verifications.filter(other) } : {}),
      };
    });
  }

  private async change(
    ctx: RequestContext,
    formUrn: string,
    entityUrns: readonly string[],
    next: (forms: FormsAspect) => FormsAspect | undefined,
  ): Promise<void> {
    const refs = [...new Set(entityUrns)].map(requireEntityUrn);
    if (!(await this.policy.holds(ctx, MANAGE_FORMS)))
      for (const ref of refs) await requireAnyOf(this.policy, ctx, ASSIGN_FORMS, { resourceUrn: ref.urn });
    requireUrnOf(formUrn, ['form'], 'formUrn');
    if (!(await this.stored.exists(formUrn))) throw new ValidationError(`Form ${formUrn} does not exist`);
    const missing = await this.stored.missing(refs.map((r) => r.urn));
    if (missing.length > 0)
      throw new ValidationError(`Failed to update forms: these entities do not exist: ${missing.join(', ')}`);
    const changes: AspectChange[] = [];
    for (const ref of refs) {
      const updated = next((await this.stored.aspect<FormsAspect>(ref.urn, 'forms')) ?? {});
      if (updated !== undefined)
        changes.push({ urn: ref.urn, entityType: ref.entity, aspect: 'forms', value: updated });
    }
    await writeDecided(this.proposals, ctx, changes);
  }
}
