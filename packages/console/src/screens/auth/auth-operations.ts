/** Sign-up, activation and password reset mutations. */
import { graphql } from '../../graphql/graphql.js';

export const UserRegisterMutation = graphql(`
  mutation UserRegister($input: UserRegisterInput!) {
    userRegister(input: $input) { id username }
  }
`);

export const UserActivationMutation = graphql(`
  mutation UserActivation($token: String!) {
    userActivation(token: $token) { id username }
  }
`);

export const UserRequestPasswordResetMutation = graphql(`
  mutation UserRequestPasswordReset($input: UserRequestPasswordResetInput!) {
    userRequestPasswordReset(input: $input) { success }
  }
`);

export const UserPasswordResetMutation = graphql(`
  mutation UserPasswordReset($input: UserPasswordResetInput!) {
    userPasswordReset(input: $input) { id username }
  }
`);

export const TourReactivateMutation = graphql(`
  mutation TourReactivate($id: ID!) {
    tourReactivate(id: $id) { id title }
  }
`);
