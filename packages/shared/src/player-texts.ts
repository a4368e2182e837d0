/**
 * The texts the tour player's main bundle shows (its editor's marker messages, notices and error dialogs). They are
 * part of VALIDATION, NOTICES and ERROR_TEXTS in messages.ts, which spread these in; the player's script-tag bundle
 * takes only this module, so a listing page does not download every text of the console (player JS budget).
 * The lazily loaded live panel takes messages.ts whole.
 */

export const PLAYER_VALIDATION = {
  noChanges: 'No changes',
  markerNameEmpty: 'Name cannot be empty',
  markerNameRequired: 'Please enter a marker name',
} as const;

export const PLAYER_NOTICES = {
  markerUpdated: 'Marker updated',
  markerUpdateFailed: 'Failed to update marker',
  markerDeleteFailed: 'Failed to delete marker',
} as const;

export const PLAYER_ERROR_TEXTS = {
  contactForMore: 'For more information contact',
  dataLoadError: 'Something seems to have gone wrong',
  failedToLoadTitle: 'Failed to Load',
  failedToLoad: 'Your tour failed to load. Please refresh and try again.',
  takingAWhileTitle: 'This is taking a while...',
  takingAWhile: 'This tour seems to be taking longer than usual to load. Please refresh to try reload the tour.',
  aiAlreadyGenerating: 'AI Markers already generating for another tour.',
  aiAlreadyCreated: 'AI Markers already created on this tour.',
  aiFailedPrefix: 'Failed to generate AI markers: ',
  tourRemovedTitle: 'This tour has been removed',
  tourRemoved: 'Unfortunately this tour has been removed by the owner.',
  invalidLinkTitle: 'Invalid Link',
  invalidLink: 'This is not a valid tour link. Please check the link and try again.',
} as const;

/**
 * The password and members-only screens of a protected tour: they name no tour, only the company. Their own
 * export, so the main bundle leaves them to the gate's chunk (tour-player-gate.js).
 */
export const PLAYER_GATE_TEXTS = {
  tourPasswordTitle: 'This tour is protected',
  tourPasswordText: 'Enter the password you were given to view this tour.',
  tourPasswordLabel: 'Password',
  tourPasswordSubmit: 'View tour',
  tourPasswordWrong: 'That password is not right. Please try again.',
  tourMembersOnlyTitle: 'This tour is private',
  tourMembersOnly: 'Only members of the company can view this tour. Please sign in to continue.',
  tourMembersOnlySignIn: 'Sign in',
  linkUnavailableTitle: 'This tour is no longer available',
  linkUnavailable: 'This tour is no longer available.',
  /** "Contact Ama Agent (Coast Homes): ama@example.com, +44 …" */
  linkUnavailableContact: 'Contact',
} as const;
