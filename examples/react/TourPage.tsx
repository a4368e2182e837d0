// React usage of the player through the @lit/react wrapper exported by the package.
import { useRef, useState } from 'react';
import { TourPlayer } from '@roomwalk/player-element/react';
import type { TourPlayer as TourPlayerElement } from '@roomwalk/player-element';

export function TourPage({ tourId, api }: { tourId: string; api: string }) {
  const ref = useRef<TourPlayerElement>(null);
  const [room, setRoom] = useState<string>('–');
  return (
    <section>
      <TourPlayer
        ref={ref}
        tourId={tourId}
        api={api}
        mode="external"
        style={{ display: 'block', height: 560 }}
        onTourMarkerChange={(e) => setRoom(e.detail.marker?.name ?? '–')}
        onTourError={(e) => console.warn(e.detail.error.code)}
      />
      <p>Room: {room}</p>
      <button type="button" onClick={() => void ref.current?.goToMarker('Kitchen')}>
        Go to the kitchen
      </button>
    </section>
  );
}
