import { graphql } from '../gql';

/** An entity of any family with the labels a page shows: tags, terms, owners, domain, what may be edited. */
export const EntityDetailsQuery = graphql(`
  query getEntityDetails($urn: String!) {
    entity(urn: $urn) {
      ...EntitySummaryFields
      ... on Chart {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on Dashboard {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on DataFlow {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on DataJob {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on Container {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on MLModel {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on GlossaryTerm {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on Domain {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on DataProduct {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on CorpUser {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on CorpGroup {
        tags {
          ...TagAssociations
        }
        glossaryTerms {
          ...TermAssociations
        }
        ownership {
          ...OwnerFields
        }
        domain {
          domain {
            urn
            properties {
              name
            }
          }
        }
        privileges {
          canEditTags
        }
      }
      ... on Tag {
        ownership {
          ...OwnerFields
        }
      }
    }
  }
`);

export const OwnerFieldsFragment = graphql(`
  fragment OwnerFields on Ownership {
    owners {
      type
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
`);
