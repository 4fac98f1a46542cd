import {
  arrayOf,
  aspect,
  CUSTOM_PROPERTIES,
  opt,
  record,
  req,
  URN,
  type AspectDefinition,
} from '../avro-schema.js';

/** The ecosystem's default picture for users and groups that set none. */
const DEFAULT_PICTURE =
  'https://raw.githubusercontent.com/datahub-project/datahub/master/datahub-web-react/src/images/default_avatar.png';

/** Aspects of the `com.linkedin.identity` namespace (users and groups). */
export const IDENTITY_ASPECTS: readonly AspectDefinition[] = [
  aspect({
    name: 'corpUserInfo',
    schema: record('com.linkedin.identity.CorpUserInfo', [
      CUSTOM_PROPERTIES,
      req('active', 'boolean'),
      opt('displayName', 'string'),
      opt('email', 'string'),
      opt('title', 'string'),
      opt('managerUrn', URN),
      opt('departmentId', 'long'),
      opt('departmentName', 'string'),
      opt('firstName', 'string'),
      opt('lastName', 'string'),
      opt('fullName', 'string'),
      opt('countryCode', 'string'),
      req('system', 'boolean', false),
    ]),
    searchable: [
      { fieldName: 'active', path: 'active', type: 'BOOLEAN', queryByDefault: false },
      {
        fieldName: 'displayName',
        path: 'displayName',
        type: 'WORD_GRAM',
        boost: 10,
        enableAutocomplete: true,
        fieldNameAliases: ['_entityName'],
      },
      { fieldName: 'email', path: 'email', type: 'KEYWORD', queryByDefault: true },
      { fieldName: 'title', path: 'title', type: 'KEYWORD', queryByDefault: true },
      { fieldName: 'managerLdap', path: 'managerUrn', type: 'URN', queryByDefault: true },
      { fieldName: 'departmentName', path: 'departmentName', type: 'KEYWORD', queryByDefault: false },
      { fieldName: 'firstName', path: 'firstName', type: 'TEXT_PARTIAL', queryByDefault: false },
      { fieldName: 'lastName', path: 'lastName', type: 'TEXT_PARTIAL', queryByDefault: false },
      { fieldName: 'fullName', path: 'fullName', type: 'WORD_GRAM', boost: 10, enableAutocomplete: true },
      { fieldName: 'countryCode', path: 'countryCode', type: 'KEYWORD', queryByDefault: false },
      { fieldName: 'isSystemUser', path: 'system', type: 'BOOLEAN', queryByDefault: false },
    ],
    relationships: [{ name: 'ReportsTo', path: 'managerUrn', entityTypes: ['corpuser'] }],
  }),
  aspect({
    name: 'corpUserEditableInfo',
    schema: record('com.linkedin.identity.CorpUserEditableInfo', [
      opt('aboutMe', 'string'),
      req('teams', arrayOf('string'), []),
      req('skills', arrayOf('string'), []),
      req('pictureLink', 'string', DEFAULT_PICTURE),
      opt('displayName', 'string'),
      opt('title', 'string'),
      opt('platforms', arrayOf(URN)),
      opt('persona', URN),
      opt('slack', 'string'),
      opt('phone', 'string'),
      opt('email', 'string'),
    ]),
    searchable: [
      { fieldName: 'teams', path: 'teams', type: 'TEXT' },
      { fieldName: 'skills', path: 'skills', type: 'TEXT' },
    ],
  }),
  aspect({
    name: 'corpGroupInfo',
    schema: record('com.linkedin.identity.CorpGroupInfo', [
      opt('displayName', 'string'),
      opt('email', 'string'),
      req('admins', arrayOf(URN)),
      req('members', arrayOf(URN)),
      req('groups', arrayOf(URN)),
      opt('description', 'string'),
      opt('slack', 'string'),
      opt('created', 'com.linkedin.common.AuditStamp'),
    ]),
    searchable: [
      {
        fieldName: 'displayName',
        path: 'displayName',
        type: 'WORD_GRAM',
        boost: 10,
        enableAutocomplete: true,
        fieldNameAliases: ['_entityName'],
      },
      { fieldName: 'description', path: 'description', type: 'TEXT', hasValuesFieldName: 'hasDescription' },
      { fieldName: 'createdTime', path: 'created/time', type: 'DATETIME', queryByDefault: false },
    ],
    relationships: [
      { name: 'OwnedBy', path: 'admins', entityTypes: ['corpuser'] },
      { name: 'IsPartOf', path: 'members', entityTypes: ['corpuser'] },
      { name: 'IsPartOf', path: 'groups', entityTypes: ['corpGroup'] },
    ],
  }),
  aspect({
    name: 'corpGroupEditableInfo',
    schema: record('com.linkedin.identity.CorpGroupEditableInfo', [
      opt('description', 'string'),
      req('pictureLink', 'string', DEFAULT_PICTURE),
      opt('slack', 'string'),
      opt('email', 'string'),
    ]),
    searchable: [{ fieldName: 'editedDescription', path: 'description', type: 'TEXT' }],
  }),
  aspect({
    name: 'groupMembership',
    schema: record('com.linkedin.identity.GroupMembership', [req('groups', arrayOf(URN))]),
    relationships: [{ name: 'IsMemberOfGroup', path: 'groups', entityTypes: ['corpGroup'] }],
  }),
  aspect({
    name: 'nativeGroupMembership',
    schema: record('com.linkedin.identity.NativeGroupMembership', [req('nativeGroups', arrayOf(URN))]),
    relationships: [{ name: 'IsMemberOfNativeGroup', path: 'nativeGroups', entityTypes: ['corpGroup'] }],
  }),
];
