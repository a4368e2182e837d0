/** React wrapper: `import { TourPlayer } from '@roomwalk/player-element/react'`. */
import * as React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { TourPlayer as TourPlayerElement } from '../tour-player/tour-player.js';
import type { TourEvent } from '../events/events.js';

export const TourPlayer = createComponent({
  tagName: 'tour-player',
  elementClass: TourPlayerElement,
  react: React,
  events: {
    onTourReady: 'tour-ready' as EventName<TourEvent<'tour-ready'>>,
    onTourFrameChange: 'tour-frame-change' as EventName<TourEvent<'tour-frame-change'>>,
    onTourMarkerChange: 'tour-marker-change' as EventName<TourEvent<'tour-marker-change'>>,
    onTourRoomChange: 'tour-room-change' as EventName<TourEvent<'tour-room-change'>>,
    onTourStatusChange: 'tour-status-change' as EventName<TourEvent<'tour-status-change'>>,
    onTourError: 'tour-error' as EventName<TourEvent<'tour-error'>>,
    onTourNotice: 'tour-notice' as EventName<TourEvent<'tour-notice'>>,
    onTourMenuRequest: 'tour-menu-request' as EventName<TourEvent<'tour-menu-request'>>,
    onTourLiveLead: 'tour-live-lead' as EventName<TourEvent<'tour-live-lead'>>,
    onTourLiveClose: 'tour-live-close' as EventName<TourEvent<'tour-live-close'>>,
  },
});
