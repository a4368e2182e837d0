import { PLAYER } from '@roomwalk/shared/constants';
import type { LitElement } from 'lit';
import type { Marker } from '../api/types.js';

/**
 * The markers' types and rules, shared by the drawer, the store, the controllers and the editing chunk. The drawer
 * (markers-drawer/) and the editing chunk (editing/) depend on this module, never on each other's classes: the
 * editing chunk sees the drawer and the markers controller through the interfaces below.
 */

/** The Add button's state in the drawer (edit mode). */
export type AddState = 'idle' | 'adding' | 'addingCustom';

/** An AI marker generation's progress (super admin, edit mode). */
export interface AIProgress {
  active: boolean;
  progress: number;
  added: Marker[];
  removed: Marker[];
}

/** A row of the drawer: a marker, and whether it was there before an AI generation, added by it, or removed. */
export interface DrawerRow {
  marker: Marker;
  origin: 'existed' | 'added' | 'removed';
  leaving: boolean;
}

/** Sorted by frameIndex, the marker within 0.5 frame of `frame` is the active one. */
export function sortMarkers(markers: readonly Marker[]): Marker[] {
  return [...markers].sort((a, b) => a.frameIndex - b.frameIndex);
}

export function activeMarkerAt(markers: readonly Marker[], frame: number): Marker | null {
  return markers.find((m) => Math.abs(m.frameIndex - frame) <= PLAYER.activeMarkerTolerance) ?? null;
}

/** What the drawer's edit UI (editing/drawer-editor.ts) reads of the drawer it edits. */
export interface EditableDrawer extends LitElement {
  superAdmin: boolean;
  savingIds: ReadonlySet<string>;
  deletingIds: ReadonlySet<string>;
  addState: AddState;
  ai: AIProgress;
}
