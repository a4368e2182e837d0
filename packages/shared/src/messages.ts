/** Every user-facing text of the validation rules and the error catalogues, in one place. */
import { PRODUCT_NAME } from './constants.js';
import { PLAYER_ERROR_TEXTS, PLAYER_NOTICES, PLAYER_VALIDATION } from './player-texts.js';

export const VALIDATION = {
  ...PLAYER_VALIDATION,
  tourPasswordShort: 'The password needs at least 4 characters.',
  tourPasswordNeeded: 'Choose a password for this tour.',
  audienceLinkLabelRequired: 'Give the link a name, such as "Buyers\' open day".',
  audienceLinkLabelLong: 'The name can be at most 60 characters.',
  audienceLinkExpiryInvalid: 'Choose an expiry date, or leave it empty for a link that does not expire.',
  audienceLinkExpiryPast: 'The expiry date must be today or later.',
  audienceLinkRoomUnknown: 'One of the rooms to hide is not a room of this tour.',
  audienceLinkAllHidden: 'Leave at least one room visible.',
  audienceLinkTooMany: 'A tour can have at most 50 audience links. Revoke one you no longer use.',
  emailInvalid: 'Not a valid email.',
  emailRequired: 'Email is a required field.',
  passwordRequired: 'Password is a required field.',
  passwordMin: 'Password must be at least 8 characters long.',
  passwordLowercase: 'Password must contain at least one lowercase letter.',
  passwordUppercase: 'Password must contain at least one uppercase letter.',
  passwordNumber: 'Password must contain at least one number.',
  passwordsMatch: 'Passwords must match',
  confirmPasswordRequired: 'Confirm Password is a required field.',
  newPasswordRequired: 'New Password is a required field.',
  firstnameRequired: 'Firstname is a required field.',
  surnameRequired: 'Surname is a required field.',
  nameRequired: 'Name is a required field.',
  maxChars: 'Maximum characters reached',
  acceptTerms: 'Please accept the terms and conditions.',
  humanCheckRequired: 'Please complete the human verification.',
  contactNumberRequired: 'Contact Number is a required field.',
  invalidPhone: 'Invalid phone number',
  contactNumberUnparsable: 'Contact number is required',
  companyNameRequired: 'Company name is a required field.',
  feedbackEmailInvalid: 'Invalid email',
  commentRequired: 'Comment is a required field.',
  logoPlanHint: 'Logo editing is available for Basic and Pro plans',
  titleRequired: 'Title is required.',
  videoTooShort: 'Video cannot be less than 10 seconds',
  videoTooLong: 'Video cannot be longer than 10 minutes',
  videoResolutionLow: 'Video Resolution Too Low',
  noFileSelected: 'No file selected',
  reelsMax: 'Maximum number of reels reached',
  invalidUrl: 'Not a valid link.',
} as const;

export const NOTICES = {
  ...PLAYER_NOTICES,
  profileSaved: 'Profile saved successfully',
  profileSaveFailed: 'Failed to save profile',
  successful: 'Successful',
  teamRemoved: 'Team removed',
  revokedInvite: 'Revoked invite',
  couldNotRevokeInvite: 'Could not revoke invite',
  teamAdminRemoved: 'Team admin removed',
  revokedAdmin: 'Revoked admin',
  couldNotRevokeAdmin: 'Could not revoke admin',
  teamAdminAdded: 'Team admin added',
  promotedToAdmin: 'Promoted to admin',
  couldNotPromote: 'Could not promote to admin',
  unknownCompany: 'Unknown company',
  invited: 'Email has been invited successfully',
  inviteFailed: 'Error creating user invite',
  resetEmailSent: 'Password reset email sent successfully',
  resetEmailFailed: 'Error sending password reset email',
  resetFailed: 'Error resetting password',
  copyFailed: 'Failed',
  copied: 'Copied',
  unableToUpdateThumbnail: 'Unable to update thumbnail',
  failedToUpdateTour: 'Failed to update tour details',
  couldNotDeleteTour: 'Could not delete tour data',
  deletedTour: 'Deleted tour',
  couldNotGenerateReel: 'Could not generate reel',
  couldNotSaveTour: 'Could not save tour data: ',
} as const;

export const ERROR_TEXTS = {
  ...PLAYER_ERROR_TEXTS,
  /** Live viewing: this socket was replaced by the same person's newer one (close 4005; not in the spec). */
  liveReplaced: 'This live viewing continues in another tab or window.',
  loginFailedTitle: 'Something went wrong...',
  loginFailed: 'Unfortunately we were unable to log you in. Confirm your username and password are correct.',
  authenticationFailed: 'Authentication Failed',
  googleLoginFailed: 'Unfortunately we were unable to log you in using your Google account.',
  signupFailed: 'Unfortunately we were unable to sign you up.',
  usernameTaken: 'Username already taken',
  notFoundPage: 'We are sorry, but the page you are trying to access does not exist.',
  pressBackAgain: 'Press back again to exit',
  noActiveLicense: 'No active license for company',
  uploadFailedTitle: 'Your tour failed to upload. Tour upload failed',
  /**
   * Not in the spec: a file that is no video we can read (random bytes, a document renamed .mp4), before or after
   * upload.
   */
  /**
   * Not in the spec: a logo or profile picture that is no image (the toast alone said only "Failed to save profile").
   */
  notAnImage: 'This file is not an image. Use PNG, JPEG or WebP.',
  videoUnreadable:
    'This file is not a video Roomwalk can read. Please choose the video file from your phone or camera (MP4 or MOV).',
  /**
   * Not in the spec (it has no text for an unreadable file): a file cut off part-way, shown on the failed card.
   */
  videoIncomplete:
    'This video file is incomplete: it stops part-way through (it may not have been saved or copied completely). Please upload the complete file again.',
  videoTooShortTitle: 'Tour Video Length too short',
  videoTooLongTitle: 'Tour Video Length exceeded',
  videoResolutionTitle: 'Video Resolution Too Low',
  reactivationFailedTitle: 'Re-activation Failed',
  reactivationFailed: 'There was a problem re-activating your tour. Please try again later.',
  reactivationSuccess: 'Re-Activation Successful',
  activationFailedTitle: 'Activation Failed',
  activationFailed: 'There was a problem activating your account. Please try again later.',
  activationSuccessTitle: 'Activation Successful',
  activationSuccess: 'Your account has been successfully activated!',
  activationWaiting: 'Please wait while we activate your account.',
  activationAlreadyTitle: 'Account Already Active',
  shotsNotReady: 'Tour must be fully processed before generating professional photos.',
  tourNotFound: 'Tour not found',
  teamsNotAvailable: 'Teams are not available on your current package.',
  captureFailed: 'Could not capture canvas image',
  sessionExpired: 'Session expired. Please rejoin.',
  reconnectFailed: 'Failed to reconnect after multiple attempts',
  websocketError: 'WebSocket connection error',
  websocketCreateFailed: 'Failed to create WebSocket connection',
  connectionErrorOccurred: 'Connection error occurred',
  micDenied: "Microphone access denied. Others won't be able to hear you.",
  cameraDenied: "Camera access denied. Others won't be able to see you.",
  bothDenied: "Camera and microphone access denied. Others won't be able to see or hear you.",
  permissionsRequired: 'Camera or microphone permissions are required for video chat.',
  notAvailableYet: 'This feature is not available yet.',
  unexpected: 'Something went wrong. Please try again.',
  notAuthenticated: 'Please log in to continue.',
  forbidden: 'You do not have access to this.',
  notFound: 'Not found.',
  rateLimited: 'Too many attempts. Please wait a moment and try again.',
  tourPasswordRequired: 'This tour is protected by a password.',
  invalidToken: 'This link is invalid or has expired.',
  accountAlreadyActive: 'Your account is already active. Log in to continue.',
  humanCheckFailed: 'Human verification failed. Please try again.',
  accountNotActivated: 'Account status: Not activated',
  activateHint: 'Please click the link in your email to activate your account.',
  noActiveToursLeft: 'Membership: No active tours left',
  noMonthlyUploadsLeft: 'Membership: No monthly uploads left',
  upgradeHint: 'Upgrade to a larger plan in order to upload more tours',
  queryTooComplex: 'This request is too large or too deep.',
  /** Upload refusals before a byte is sent (not in the spec). */
  videoEmpty: 'The file is empty.',
  videoSizeInvalid: 'The size of this file could not be read. Please choose the file again.',
} as const;

/** Texts with a parameter. */
export const formatTexts = {
  connectionError: (code: string | number) => `Connection error: ${code}`,
  aiEditError: (action: string, message: string) => `Error during ${action}: ${message}`,
  shareText: (title: string) => `Check out this ${PRODUCT_NAME} Walkthrough: ${title}`,
  views: (n: number) => (n === 1 ? '1 view' : `${n} views`),
  reelName: (n: number) => `Reel ${n}`,
  reelFailed: (n: number) => `Generation Failed Reel ${n}`,
  reconnecting: (n: number) => `Reconnecting (${n})`,
  teamLabel: (name: string) => (name.length > 15 ? `${name.slice(0, 15)}...` : name),
  productTours: () => `${PRODUCT_NAME} Tours`,
  /** Upload refusals (not in the spec): the largest video, and the unfinished uploads one user may hold. */
  videoTooLarge: (maxGb: number) => `The video is too large. Videos up to ${maxGb} GB can be uploaded.`,
  tooManyOpenUploads: (n: number) =>
    `You already have ${n === 1 ? 'an unfinished upload' : `${n} unfinished uploads`}. Pick ${n === 1 ? 'that file' : 'one of those files'} again to resume it, or try again in a few hours.`,
  openUploadsTooLarge: (maxGb: number) =>
    `Your unfinished uploads already add up to the ${maxGb} GB your plan allows at once. Pick one of those files again to resume it, or try again in a few hours.`,
} as const;

/** Account-side notes that explain, before anyone tries, what a screen does not offer. */
export const ACCOUNT_NOTES = {
  memberCompany: 'Only company admins can edit company details.',
  memberPlan: 'Your company admin manages the plan.',
  memberReports: 'Reports are available to company admins.',
  offlineLicense: 'Your company has an Offline License arranged with Roomwalk. Contact support to change it.',
  offlineCurrent: 'Your company is on the Offline License (not one of these plans). Contact support to change it.',
  paymentSuccess: 'Payment received. Your plan is active.',
  paymentCancelled: 'Payment cancelled. Your plan has not changed.',
  googleNotConfigured: 'Google sign-in is not configured on this server.',
} as const;
