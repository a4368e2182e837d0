/** Shapes of the public tour query (see docs/embedding in the package README). */
export interface Marker {
  id: string;
  name: string;
  description?: string | null;
  tourId?: string;
  scrollPosition?: number | null;
  frameIndex: number;
  isFastTravel?: boolean;
}

export interface Clip {
  id: string;
  index: number;
  frameCount?: number | null;
  duration?: number | null;
  highURI: string;
  lowURI: string;
}

/** What the player is told of a tour's lead gate (Tour.leadGate). */
interface LeadGateInfo {
  /** The room the form comes before (its clips are not given until the visitor is through). */
  roomName: string | null;
  /** Seconds of watching after which the form comes. */
  seconds: number | null;
  /** The visitor waits for the agent's approval after the form. */
  approval: boolean;
  /** This visitor is through the gate. */
  open: boolean;
}

export interface PlayerTour {
  id: string;
  title: string;
  description?: string | null;
  thumbnailURL?: string | null;
  tourIntroLogoURL?: string | null;
  /** The company's accent colour (#rrggbb) when its plan has Custom Company Branding. */
  tourAccentColor?: string | null;
  listingLink?: string | null;
  views?: number | null;
  status?: { status: string } | null;
  videoInfo?: {
    width: number;
    height: number;
    fullSize?: number | null;
    mediumSize?: number | null;
    smallSize?: number | null;
  } | null;
  clips: Clip[];
  markers: Marker[];
  /**
   * The tour's lead gate (null: none): the form before a room or after some seconds
   * (controllers/lead-gate-controller.ts).
   */
  leadGate?: LeadGateInfo | null;
  agentProfile?: {
    fullname?: string | null;
    contactNumber?: string | null;
    email?: string | null;
    profileImageURL?: string | null;
  } | null;
}

export interface AIMarkerEvent {
  action: 'ADD' | 'REMOVE';
  marker: { id: string; isFastTravel?: boolean; frameIndex: number; name: string } | null;
  progressPercentage: number;
}
