/**
 * APIs & Webhooks: API keys on the company, webhook endpoints and their delivery log. An endpoint's secret
 * is never in the list: it is read only when an admin asks to reveal it (WebhookEndpointSecret).
 */
import { graphql } from '../../graphql/graphql.js';

export const DevelopersQuery = graphql(`
  query Developers {
    me {
      user {
        id
        isAdmin
        company {
          id
          license { planName }
          apiKeys { id name prefix createdAt lastUsedAt }
        }
      }
    }
    webhookEndpoints { id url description events enabled disabledReason createdAt }
  }
`);

/** Only what the plan gate needs, for when DevelopersQuery is refused (PLAN_REQUIRED, FORBIDDEN). */
export const DevelopersAccessQuery = graphql(`
  query DevelopersAccess {
    me { user { id isAdmin company { id license { planName } } } }
  }
`);

export const EndpointSecretQuery = graphql(`
  query WebhookEndpointSecret {
    webhookEndpoints { id secret }
  }
`);

export const WebhookDeliveriesQuery = graphql(`
  query WebhookDeliveries($endpointId: ID!, $first: Int!, $after: String) {
    webhookDeliveries(endpointId: $endpointId, first: $first, after: $after) {
      edges {
        node { id eventId eventType attempt status statusCode durationMs error responseExcerpt nextRetryAt createdAt }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const ApiKeyCreateMutation = graphql(`
  mutation ApiKeyCreate($input: ApiKeyCreateInput!) {
    apiKeyCreate(input: $input) { apiKey { id name prefix createdAt lastUsedAt } secret }
  }
`);

export const ApiKeyRevokeMutation = graphql(`
  mutation ApiKeyRevoke($id: ID!) {
    apiKeyRevoke(id: $id) { id }
  }
`);

export const WebhookEndpointCreateMutation = graphql(`
  mutation WebhookEndpointCreate($input: WebhookEndpointCreateInput!) {
    webhookEndpointCreate(input: $input) { endpoint { id url description events enabled disabledReason createdAt } secret }
  }
`);

export const WebhookEndpointUpdateMutation = graphql(`
  mutation WebhookEndpointUpdate($input: WebhookEndpointUpdateInput!) {
    webhookEndpointUpdate(input: $input) { id url description events enabled disabledReason createdAt }
  }
`);

export const WebhookEndpointDeleteMutation = graphql(`
  mutation WebhookEndpointDelete($id: ID!) {
    webhookEndpointDelete(id: $id)
  }
`);

export const WebhookEndpointRotateSecretMutation = graphql(`
  mutation WebhookEndpointRotateSecret($id: ID!) {
    webhookEndpointRotateSecret(id: $id) { endpoint { id url description events enabled disabledReason createdAt } secret }
  }
`);

export const WebhookEndpointSendTestMutation = graphql(`
  mutation WebhookEndpointSendTest($id: ID!) {
    webhookEndpointSendTest(id: $id)
  }
`);

export const WebhookDeliveryReplayMutation = graphql(`
  mutation WebhookDeliveryReplay($id: ID!) {
    webhookDeliveryReplay(id: $id)
  }
`);
