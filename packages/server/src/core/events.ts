/** Payloads of the events jobs publish and GraphQL subscriptions deliver (topics in events/event-bus.ts). */

export interface TourProgressEvent {
  progress: number;
  status: string;
  text: string | null;
  thumbnailURL: string | null;
}

export interface ReelProgressEvent {
  progress: number;
  status: string;
  text: string | null;
  thumbnailURL: string | null;
}

export interface AIMarkerProgressEvent {
  tourId: string;
  marker: { id: string; isFastTravel: boolean; frameIndex: number; name: string } | null;
  progressPercentage: number;
  action: 'ADD' | 'REMOVE' | null;
}
