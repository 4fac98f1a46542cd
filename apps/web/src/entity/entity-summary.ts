import { graphql } from '../gql';

/**
 * What a list shows of any entity (search results, suggestions, facets, recent changes): its name, its
 * platform and a description, whatever its type.
 */
export const EntitySummaryFragment = graphql(`
  fragment EntitySummaryFields on Entity {
    urn
    type
    ... on Dataset {
      name
      properties {
        name
        description
      }
      editableProperties {
        description
      }
      platform {
        ...PlatformFields
      }
    }
    ... on Chart {
      properties {
        name
        description
      }
      platform {
        ...PlatformFields
      }
    }
    ... on Dashboard {
      properties {
        name
        description
      }
      platform {
        ...PlatformFields
      }
    }
    ... on DataFlow {
      properties {
        name
        description
      }
      platform {
        ...PlatformFields
      }
    }
    ... on DataJob {
      properties {
        name
        description
      }
    }
    ... on Container {
      properties {
        name
        description
      }
      platform {
        ...PlatformFields
      }
    }
    ... on MLModel {
      name
      platform {
        ...PlatformFields
      }
    }
    ... on Domain {
      properties {
        name
        description
      }
    }
    ... on DataProduct {
      properties {
        name
        description
      }
    }
    ... on Tag {
      name
      properties {
        name
        description
        colorHex
      }
    }
    ... on GlossaryTerm {
      name
      properties {
        name
        description
      }
    }
    ... on GlossaryNode {
      properties {
        name
      }
    }
    ... on CorpUser {
      username
      properties {
        displayName
        fullName
      }
    }
    ... on CorpGroup {
      name
      properties {
        displayName
      }
    }
    ... on DataPlatform {
      ...PlatformFields
    }
  }
`);

export const PlatformFragment = graphql(`
  fragment PlatformFields on DataPlatform {
    urn
    name
    properties {
      displayName
    }
  }
`);
