/**
 * The shared vocabulary of authentication and authorization: who a request acts as, where it came from,
 * and the ports through which the auth package reads the catalog (the gateway provides them over the
 * aspect store and the proposal log).
 */

/** How a caller proved who it is. */
export type AuthenticationMethod =
  /** `Authorization: Basic <id>:<secret>` with the system client's credentials. */
  | 'system-client'
  /** A personal access token (`type: PERSONAL`, version 2) minted by createAccessToken. */
  | 'access-token'
  /** A session token (`type: SESSION`, version 1) minted by a login. */
  | 'session-token'
  /** A JWT from a trusted external identity provider. */
  | 'external-jwt'
  /** An unauthenticated request turned into the guest user (GUEST_AUTHENTICATION_ENABLED). */
  | 'guest'
  /** Authentication is off (METADATA_SERVICE_AUTH_ENABLED=false): the system client or `X-DataHub-Actor`. */
  | 'auth-disabled';

/** Who a request acts as. */
export interface Authentication {
  /** `urn:li:corpuser:<actorId>`. */
  readonly actorUrn: string;
  readonly actorId: string;
  readonly method: AuthenticationMethod;
  /** True for the system client: it bypasses authorization. */
  readonly isSystem: boolean;
}

/** Which API a request came through (the audit event's `eventSource`). */
export type EventSource = 'RESTLI' | 'OPENAPI' | 'GRAPHQL' | 'SSO_SCIM';

/** Where a request came from: what a write records beside its actor. */
export interface RequestOrigin {
  readonly sourceIp: string;
  readonly userAgent: string;
  readonly eventSource: EventSource;
  /** 32 lower-case hex digits: from a W3C `traceparent` header, else new. */
  readonly traceId: string;
  /**
   * The HTTP request's id (the `traceparent` trace id, else `X-Request-Id`, else new), as its log line
   * and `X-Request-Id` response header show it; proposals carry it as PROPOSAL_HEADERS.httpRequestId.
   */
  readonly requestId?: string;
}

/** One request's context, captured once by the gateway and read by every interface. */
export interface RequestContext {
  readonly authentication: Authentication;
  readonly origin: RequestOrigin;
  /**
   * True when the credential was the login cookie (no `Authorization` header): a browser attaches it
   * to requests other sites make, so such a request gets the cross-site request forgery checks.
   */
  readonly viaSessionCookie?: boolean;
}

/** What the catalog knows about a user, as authentication and authorization need it. */
export interface ActorState {
  /** The key aspect exists (an entity that was never written, or was hard deleted, does not). */
  readonly exists: boolean;
  /** `status.removed` is true (soft deleted). */
  readonly removed: boolean;
  /** `corpUserStatus.status` is SUSPENDED. */
  readonly suspended: boolean;
  /** Groups from `groupMembership` and `nativeGroupMembership`. */
  readonly groups: readonly string[];
  /** Roles held directly (`roleMembership`) or through a group (the group's `roleMembership`). */
  readonly roles: readonly string[];
  /**
   * `corpUserInfo.system` and `corpUserInfo.isSupportUser`: the flags usage metrics classify the actor
   * by (actor_class system / support / regular). Absent where the directory does not read them.
   */
  readonly flags?: { readonly system: boolean; readonly supportUser: boolean };
}

/** Reads users from the catalog; implementations may cache and must be invalidated on change. */
export interface ActorDirectory {
  actorState(actorUrn: string): Promise<ActorState>;
}

/**
 * The stored side of the service's tokens, both named `urn:li:dataHubAccessToken:<hash>`. A personal
 * access token is valid only while its entity exists; a session token (stateless, never stored when
 * issued) is refused once its entity exists, which a logout creates. The token type, signed inside the
 * token, decides which reading applies, and two tokens never share a hash.
 */
export interface AccessTokenRegistry {
  /** Whether `urn:li:dataHubAccessToken:<hash>` exists. */
  exists(tokenUrn: string): Promise<boolean>;
  /** Deletes the token entity (revocation; also for an expired token presented). */
  revoke(tokenUrn: string): Promise<void>;
  /** Whether a session token was revoked (its entity exists). */
  isSessionRevoked(tokenUrn: string): Promise<boolean>;
  /** Revokes a session token for good (a logout): stores its entity, key aspect only. */
  revokeSession(tokenUrn: string): Promise<void>;
}

/** Creates the service account of an external identity the first time it is seen (spec 2.9). */
export interface ServiceAccountProvisioner {
  ensure(account: {
    readonly actorUrn: string;
    readonly issuer: string;
    readonly subject: string;
  }): Promise<void>;
}

/** A stored `dataHubPolicyInfo`, with its urn. The value has the wire form of the aspect. */
export interface PolicyRecord {
  readonly urn: string;
  readonly info: PolicyInfo;
}

export interface PolicyInfo {
  readonly displayName?: string;
  readonly description?: string;
  readonly type: 'METADATA' | 'PLATFORM' | string;
  readonly state: 'ACTIVE' | 'INACTIVE' | 'DRAFT' | string;
  readonly resources?: {
    readonly type?: string | null;
    readonly resources?: readonly string[] | null;
    readonly allResources?: boolean;
    readonly filter?: {
      readonly criteria?: readonly {
        readonly field: string;
        readonly values: readonly string[];
        readonly condition?: 'EQUALS' | 'STARTS_WITH' | 'NOT_EQUALS' | string;
      }[];
    } | null;
    readonly privilegeConstraints?: unknown;
  } | null;
  readonly privileges: readonly string[];
  readonly actors: {
    readonly users?: readonly string[] | null;
    readonly groups?: readonly string[] | null;
    readonly roles?: readonly string[] | null;
    readonly resourceOwners?: boolean;
    readonly resourceOwnersTypes?: readonly string[] | null;
    readonly allUsers?: boolean;
    readonly allGroups?: boolean;
  };
  readonly editable?: boolean;
  readonly lastUpdatedTimestamp?: number;
}

/** Every stored policy. */
export interface PolicySource {
  listPolicies(): Promise<readonly PolicyRecord[]>;
}

/** The facts about a resource that policy filters match on, read lazily per decision. */
export interface ResourceAttributes {
  readonly urn: string;
  /** Entity type name as the registry spells it (dataset, corpuser, …). */
  readonly type: string;
  /** Owners from `ownership`, with the ownership type urn when the aspect names one. */
  readonly owners: readonly { readonly owner: string; readonly typeUrn?: string }[];
  /** Domains (and their parent domains). */
  readonly domains: readonly string[];
  /** The direct parent container, if any. */
  readonly containers: readonly string[];
  readonly tags: readonly string[];
  readonly glossaryTerms: readonly string[];
  readonly dataPlatformInstances: readonly string[];
}

/** Facts a decision takes as given instead of reading them (what a write is about to make true). */
export interface ResourceOverrides {
  /** The resource's domains (their parents are added as for stored ones). */
  readonly domains?: readonly string[];
}

export interface ResourceResolver {
  resourceAttributes(urn: string, overrides?: ResourceOverrides): Promise<ResourceAttributes>;
}

/** One authorization question: may this actor do any of these privileges, on this resource? */
export interface AuthorizationRequest {
  readonly actorUrn: string;
  /** Any one suffices. */
  readonly privileges: readonly string[];
  /** Absent for platform privileges, or for a question about no particular resource. */
  readonly resourceUrn?: string;
  /** When there is no resource urn but the question is about a type (e.g. a search gate). */
  readonly resourceType?: string;
  /**
   * The domains the write being decided gives the resource (the ecosystem's proposed domains): DOMAIN
   * filters match these (and their parents) instead of the stored ones, so a policy scoped to a domain
   * allows creating an entity in it.
   */
  readonly proposedDomains?: readonly string[];
}

/** Answers authorization questions; the one place every interface asks. */
export interface Authorizer {
  isAllowed(request: AuthorizationRequest): Promise<boolean>;
  /** Every platform privilege the actor holds (for `me.platformPrivileges`). */
  platformPrivileges(actorUrn: string): Promise<ReadonlySet<string>>;
  /** Drops cached policies (after a policy write on this node, or a change log of one). */
  invalidatePolicies(): void;
  /** Drops cached facts about an actor (group membership, roles, status changed). */
  invalidateActor(actorUrn: string): void;
}
