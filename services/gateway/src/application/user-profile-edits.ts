import type { RequestContext } from '@catalog/auth';
import { ForbiddenError, NotFoundError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { UNAUTHORIZED_MESSAGE } from './admin-privileges.js';
import { writeDecided } from './aspect-changes.js';
import { requireUrnOf } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

/** What a profile edit may set (the ecosystem's CorpUserUpdateInput); an absent field is left as it is. */
export interface UserProfileInput {
  readonly displayName?: string | null;
  readonly title?: string | null;
  readonly aboutMe?: string | null;
  readonly teams?: readonly string[] | null;
  readonly skills?: readonly string[] | null;
  readonly pictureLink?: string | null;
  readonly slack?: string | null;
  readonly phone?: string | null;
  readonly email?: string | null;
  readonly platformUrns?: readonly string[] | null;
  readonly personaUrn?: string | null;
}

const CONTACT_FIELDS = ['slack', 'phone', 'email'] as const;
const PROFILE_FIELDS = ['aboutMe', 'displayName', 'pictureLink', 'teams', 'title'] as const;

/**
 * Edits of a user's profile (`corpUserEditableInfo`), as the ecosystem's updateCorpUserProperties makes
 * them: a user edits their own; another needs EDIT_ENTITY on the user, or the privilege of what the edit
 * touches (EDIT_CONTACT_INFO for contact details, else EDIT_USER_PROFILE). Only the fields given change
 * (one patch, so concurrent edits of other fields are kept).
 */
export class UserProfileEdits {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  /** Applies the edit; returns the user's urn. */
  async update(ctx: RequestContext, urn: string, input: UserProfileInput): Promise<string> {
    const user = requireUrnOf(urn, ['corpuser'], 'urn');
    if (!(await this.mayEdit(ctx, user.urn, input))) throw new ForbiddenError(UNAUTHORIZED_MESSAGE);
    const platforms = input.platformUrns?.map(
      (p, i) => requireUrnOf(p, ['dataPlatform'], `platformUrns[${i}]`).urn,
    );
    const persona =
      input.personaUrn == null
        ? undefined
        : requireUrnOf(input.personaUrn, ['dataHubPersona'], 'personaUrn').urn;
    // An edit would create the user: only existing users have a profile to edit.
    if (!(await this.stored.exists(user.urn))) throw new NotFoundError(`User ${user.urn} does not exist`);
    const fields: Record<string, unknown> = {};
    for (const name of [
      'displayName',
      'title',
      'aboutMe',
      'pictureLink',
      'slack',
      'phone',
      'email',
    ] as const) {
      const value = input[name];
      if (value != null) fields[name] = value;
    }
    if (input.teams != null) fields['teams'] = [...input.teams];
    if (input.skills != null) fields['skills'] = [...input.skills];
    if (platforms !== undefined) fields['platforms'] = platforms;
    if (persona !== undefined) fields['persona'] = persona;
    if (Object.keys(fields).length === 0) return user.urn;
    const patch = Object.entries(fields).map(([name, value]) => ({ op: 'add', path: `/${name}`, value }));
    await writeDecided(this.proposals, ctx, [
      {
        urn: user.urn,
        entityType: 'corpuser',
        aspect: 'corpUserEditableInfo',
        changeType: 'PATCH',
        value: { patch },
      },
    ]);
    return user.urn;
  }

  private async mayEdit(ctx: RequestContext, urn: string, input: UserProfileInput): Promise<boolean> {
    if (ctx.authentication.actorUrn === urn) return true;
    const specific = CONTACT_FIELDS.some((f) => input[f] != null)
      ? 'EDIT_CONTACT_INFO'
      : PROFILE_FIELDS.some((f) => input[f] != null)
        ? 'EDIT_USER_PROFILE'
        : undefined;
    const privileges = specific === undefined ? ['EDIT_ENTITY'] : ['EDIT_ENTITY', specific];
    return this.policy.holds(ctx, privileges, { resourceUrn: urn });
  }
}
