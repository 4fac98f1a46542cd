import { graphql } from '../gql';

export const DatasetQuery = graphql(`
  query getDataset($urn: String!) {
    dataset(urn: $urn) {
      urn
      type
      name
      origin
      platform {
        ...PlatformFields
      }
      properties {
        name
        description
        qualifiedName
        externalUrl
        created
        customProperties {
          key
          value
        }
      }
      editableProperties {
        description
      }
      subTypes {
        typeNames
      }
      schemaMetadata(version: 0) {
        fields {
          fieldPath
          type
          nativeDataType
          description
          nullable
          tags {
            ...TagAssociations
          }
          glossaryTerms {
            ...TermAssociations
          }
        }
      }
      editableSchemaMetadata {
        editableSchemaFieldInfo {
          fieldPath
          description
          globalTags {
            ...TagAssociations
          }
          glossaryTerms {
            ...TermAssociations
          }
        }
      }
      ownership {
        owners {
          type
          ownershipType {
            urn
          }
          owner {
            ... on CorpUser {
              urn
              type
              username
              properties {
                displayName
                fullName
              }
            }
            ... on CorpGroup {
              urn
              type
              name
              properties {
                displayName
              }
            }
          }
        }
      }
      tags {
        ...TagAssociations
      }
      glossaryTerms {
        ...TermAssociations
      }
      domain {
        domain {
          urn
          type
          properties {
            name
          }
        }
      }
      privileges {
        canEditTags
      }
    }
  }
`);

export const TagAssociationsFragment = graphql(`
  fragment TagAssociations on GlobalTags {
    tags {
      tag {
        urn
        name
        properties {
          name
          colorHex
        }
      }
    }
  }
`);

export const TermAssociationsFragment = graphql(`
  fragment TermAssociations on GlossaryTerms {
    terms {
      term {
        urn
        name
        properties {
          name
        }
      }
    }
  }
`);

export const AddTagMutation = graphql(`
  mutation addTag($input: TagAssociationInput!) {
    addTag(input: $input)
  }
`);

export const RemoveTagMutation = graphql(`
  mutation removeTag($input: TagAssociationInput!) {
    removeTag(input: $input)
  }
`);

export const CreateTagMutation = graphql(`
  mutation createTag($input: CreateTagInput!) {
    createTag(input: $input)
  }
`);

export const TagSearchQuery = graphql(`
  query searchTags($input: SearchAcrossEntitiesInput!) {
    searchAcrossEntities(input: $input) {
      searchResults {
        entity {
          urn
          type
          ... on Tag {
            name
            properties {
              name
            }
          }
        }
      }
    }
  }
`);
