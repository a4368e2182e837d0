/** Account page data and its mutations. */
import { graphql } from '../../graphql/graphql.js';

export const LicenseFields = graphql(`
  fragment LicenseFields on License {
    planName
    subscriptionId
    monthlyActiveTours
    monthlyUploadedTours
    uploadLimit
    quantity
    startDate
    endDate
  }
`);

export const AccountQuery = graphql(
  `
  query Account {
    me {
      user {
        id
        username
        activated
        isAdmin
        role
        monthlyActiveTours
        monthlyUploadedTours
        profile { id name surname email contactNumber profileImageURL }
        company {
          id
          name
          address
          vatno
          countrycode
          logoimageurl
          license { ...LicenseFields }
        }
      }
    }
  }
`,
  [LicenseFields],
);

export const UserSaveMutation = graphql(`
  mutation UserSave($input: UserSaveInput!) {
    userSave(input: $input) { id name surname email contactNumber profileImageURL }
  }
`);

export const CompanySaveMutation = graphql(`
  mutation CompanySave($input: CompanySaveInput!) {
    companySave(input: $input) { id name address vatno countrycode logoimageurl accentColor }
  }
`);

/** Custom Company Branding: the company's accent colour (read by the company dialog). */
export const CompanyBrandingQuery = graphql(`
  query CompanyBranding {
    me { user { id company { id accentColor } } }
  }
`);

export const UserActivationEmailResendMutation = graphql(`
  mutation UserActivationEmailResend($email: String!) {
    userActivationEmailResend(email: $email) { success }
  }
`);

/** Your data: the newest export, read again while it is being made. */
export const DataExportQuery = graphql(`
  query DataExport {
    dataExport { status progress progressText error downloadURL expiresAt requestedAt }
    me { deletionCancelledAt }
  }
`);

export const DataExportCreateMutation = graphql(`
  mutation DataExportCreate {
    dataExportCreate { status progress progressText error downloadURL expiresAt requestedAt }
  }
`);

export const AccountDeletionPreviewQuery = graphql(`
  query AccountDeletionPreview {
    accountDeletionPreview { allowed refusal consequences companyToo tours graceDays deleteAfter needsPassword }
  }
`);

export const AccountDeletionRequestMutation = graphql(`
  mutation AccountDeletionRequest($password: String) {
    accountDeletionRequest(password: $password) { status deleteAfter }
  }
`);
