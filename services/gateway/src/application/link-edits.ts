import type { RequestContext } from '@catalog/auth';
import { ValidationError } from '@catalog/model';
import type { AccessPolicy } from './access-policy.js';
import { writeDecided } from './aspect-changes.js';
import { EDIT_PRIVILEGES, requireEdit } from './edit-privileges.js';
import { requireEntityUrn, type NamedEntity } from './entity-urns.js';
import type { Proposals } from './proposals.js';
import type { StoredEntities } from './stored-entities.js';

type Json = Record<string, unknown>;

/** A link as a user names it: its url and label, and whether it shows in the asset preview. */
export interface LinkInput {
  readonly url: string;
  readonly label: string;
  readonly settings?: { readonly showInAssetPreview?: boolean | null } | null;
}

/** A link to replace: the one with `currentUrl` and `currentLabel`. */
export interface LinkUpdate extends LinkInput {
  readonly currentUrl: string;
  readonly currentLabel: string;
}

/** Schemes a link may have: pseudo-schemes that run code when followed (`javascript:`, `data:`) are refused. */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'ftp', 'mailto']);

/**
 * The links of an entity (its institutional memory), as the ecosystem's link mutations keep them: a link
 * is named by its url and label together, in the order added; an update keeps its place and creation
 * stamp and adds an update stamp. Each needs EDIT_ENTITY_DOC_LINKS or EDIT_ENTITY on the entity, asked
 * before anything is read; the url must be a navigation url and the entity must exist.
 */
export class LinkEdits {
  constructor(
    private readonly stored: StoredEntities,
    private readonly policy: AccessPolicy,
    private readonly proposals: Proposals,
  ) {}

  /** Adds a link; the same url with the same label again is refused. */
  async addLink(ctx: RequestContext, urn: string, link: LinkInput): Promise<void> {
    const ref = await this.editable(ctx, urn, [link.url]);
    const elements = await this.elements(ref);
    if (elements.some(named(link.url, link.label))) throw alreadyExists(link);
    elements.push(newLink(ctx, link));
    await this.save(ctx, ref, elements);
  }

  /** Replaces the link with the current url and label, keeping its place and creation stamp. */
  async updateLink(ctx: RequestContext, urn: string, update: LinkUpdate): Promise<void> {
    const ref = await this.editable(ctx, urn, [update.currentUrl, update.url]);
    const elements = await this.elements(ref);
    const index = elements.findIndex(named(update.currentUrl, update.currentLabel));
    if (index < 0)
      throw new ValidationError(
        `Failed to update the link '${update.currentUrl}' with label '${update.currentLabel}'. The link does not exist`,
      );
    if (elements.some((e, i) => i !== index && named(update.url, update.label)(e)))
      throw alreadyExists(update);
    elements[index] = replaced(ctx, elements[index]!, update);
    await this.save(ctx, ref, elements);
  }

  /** Updates the link with this url and label when there is one, adds it otherwise. */
  async upsertLink(ctx: RequestContext, urn: string, link: LinkInput): Promise<void> {
    const ref = await this.editable(ctx, urn, [link.url]);
    const elements = await this.elements(ref);
    const index = elements.findIndex(named(link.url, link.label));
    if (index < 0) elements.push(newLink(ctx, link));
    else elements[index] = replaced(ctx, elements[index]!, link);
    await this.save(ctx, ref, elements);
  }

  /** Removes the links with this url (and this label, when one is given). */
  async removeLink(ctx: RequestContext, urn: string, url: string, label?: string | null): Promise<void> {
    const ref = await this.editable(ctx, urn, [url]);
    const elements = await this.elements(ref);
    const left = elements.filter((e) =>
      label === undefined || label === null ? e['url'] !== url : !named(url, label)(e),
    );
    await this.save(ctx, ref, left);
  }

  private async editable(ctx: RequestContext, urn: string, urls: readonly string[]): Promise<NamedEntity> {
    await requireEdit(this.policy, ctx, EDIT_PRIVILEGES.links, [{ urn, column: false }]);
    const ref = requireEntityUrn(urn);
    for (const url of urls) checkUrl(url, ref.urn);
    if (!(await this.stored.exists(ref.urn)))
      throw new ValidationError(
        `Failed to change institutional memory for resource ${ref.urn}. Resource does not exist.`,
      );
    return ref;
  }

  private async elements(ref: NamedEntity): Promise<Json[]> {
    const memory = await this.stored.aspect<{ elements?: Json[] }>(ref.urn, 'institutionalMemory');
    return [...(memory?.elements ?? [])];
  }

  private save(ctx: RequestContext, ref: NamedEntity, elements: readonly Json[]): Promise<void> {
    return writeDecided(this.proposals, ctx, [
      { urn: ref.urn, entityType: ref.entity, aspect: 'institutionalMemory', value: { elements } },
    ]);
  }
}

const named = (url: string, label: string) => (element: Json) =>
  element['url'] === url && element['description'] === label;

const alreadyExists = (link: LinkInput) =>
  new ValidationError(`The link '${link.url}' with label '${link.label}' already exists`);

const stampOf = (ctx: RequestContext) => ({ time: Date.now(), actor: ctx.authentication.actorUrn });

function settingsOf(link: LinkInput): Json {
  if (link.settings === undefined || link.settings === null) return {};
  const show = link.settings.showInAssetPreview;
  return { settings: typeof show === 'boolean' ? { showInAssetPreview: show } : {} };
}

function newLink(ctx: RequestContext, link: LinkInput): Json {
  return { url: link.url, description: link.label, createStamp: stampOf(ctx), ...settingsOf(link) };
}

function replaced(ctx: RequestContext, current: Json, link: LinkInput): Json {
  return {
    url: link.url,
    description: link.label,
    createStamp: current['createStamp'],
    updateStamp: stampOf(ctx),
    ...settingsOf(link),
  };
}

function checkUrl(url: string, resourceUrn: string): void {
  let scheme: string | undefined;
  try {
    scheme = new URL(url).protocol.replace(/:$/, '').toLowerCase();
  } catch {
    throw new ValidationError(
      `Failed to change institutional memory for resource ${resourceUrn}. Expected a valid URL.`,
    );
  }
  if (!ALLOWED_SCHEMES.has(scheme))
    throw new ValidationError(
      `Failed to change institutional memory for resource ${resourceUrn}. URL scheme '${scheme}' is not allowed.`,
    );
}
