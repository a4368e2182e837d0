/**
 * Lead-gated rooms: the modes, limits and texts the player, the console and the server's approval page share, without
 * zod (the player's form chunk imports this; schemas/lead-gate.ts has the owner's input).
 */
export const LEAD_GATE_MODES = { off: 'OFF', room: 'ROOM', seconds: 'SECONDS' } as const;
export type LeadGateMode = (typeof LEAD_GATE_MODES)[keyof typeof LEAD_GATE_MODES];
export const LEAD_GATE_SECONDS_MIN = 5;
export const LEAD_GATE_SECONDS_MAX = 3600;

/**
 * Where a lead stands at the gate: waiting for the agent, approved, went on at once (no approval asked), or revoked (the
 * agent took the pass back).
 */
export const LEAD_GATE_STATES = { waiting: 'WAITING', approved: 'APPROVED', open: 'OPEN', revoked: 'REVOKED' } as const;

export const LEAD_GATE_TEXTS = {
  roomNeeded: 'Choose the room the form comes before.',
  secondsRange: `Choose between ${LEAD_GATE_SECONDS_MIN} and ${LEAD_GATE_SECONDS_MAX} seconds.`,
  roomNotInTour: 'That room is not in this tour. Choose one of its rooms.',
  roomTooEarly: 'The form cannot come before the first room. Choose a later room.',
  noGate: 'This tour does not ask for details.',
  roomHiddenByLink:
    'This link does not show that room, so the form cannot come before it. Choose a room the link shows.',
  roomTooEarlyForLink: 'The form cannot come before the first room this link shows. Choose a later room.',
  // The player's form at the gate.
  formTitle: 'Leave your details to continue',
  formTitleRoom: (room: string) => `Leave your details to see the ${room}`,
  formIntro: 'The agent asks for your details before you see the rest of this tour.',
  submit: 'Continue',
  sending: 'Sending…',
  waitingTitle: 'Waiting for the agent',
  waiting:
    'Thank you. The agent has your details and will let you continue shortly. Keep this page open: the tour continues here as soon as they approve.',
  approved: 'The agent approved. The tour continues.',
  connectionLost: 'The connection was lost. Trying again…',
} as const;
