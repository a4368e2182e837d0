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
