/**
 * The built-in roles. A role grants nothing by itself: the bootstrap policies name these urns in their
 * `actors.roles`, and users or groups hold them through `roleMembership`.
 */
export interface BootstrapRole {
  readonly urn: string;
  /** A `dataHubRoleInfo` aspect value. */
  readonly info: { readonly name: string; readonly description: string; readonly editable: boolean };
}

export const DEFAULT_ROLES: readonly BootstrapRole[] = [
  {
    urn: 'urn:li:dataHubRole:Admin',
    info: { name: 'Admin', description: 'Can do everything on the platform.', editable: false },
  },
  {
    urn: 'urn:li:dataHubRole:Editor',
    info: {
      name: 'Editor',
      description: 'Can read and edit all metadata. Cannot take administrative actions.',
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubRole:Reader',
    info: {
      name: 'Reader',
      description: 'Can read all metadata. Cannot edit anything by default, or take administrative actions.',
      editable: false,
    },
  },
];
