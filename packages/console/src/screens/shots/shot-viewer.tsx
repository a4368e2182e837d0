/** Full-screen viewer: before (original) and after (staged or enhanced) with a slider; fill or fit. */
import { useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { Dialog } from '../../ui/dialog.js';
import { TOUR_TEXTS } from '../tours/texts.js';
import { ShotDownloads, type Shot } from './shot-card.js';

export function ShotViewer({ shot, onClose }: { shot: Shot; onClose: () => void }) {
  const [split, setSplit] = useState(50);
  const [fill, setFill] = useState(false);
  const before = shot.originalImageURI;
  const after = shot.stagedImageURI ?? shot.enhancedImageURI;
  const fit = fill ? 'cover' : 'contain';
  return (
    <Dialog
      open
      label={shot.roomType ?? TOUR_TEXTS.professionalPhotos}
      onClose={onClose}
      fullscreen
      footer={<SlButton onClick={onClose}>{TOUR_TEXTS.close}</SlButton>}
    >
      <div className="shot-viewer">
        {before ? <img src={before} alt={TOUR_TEXTS.before} style={{ objectFit: fit }} /> : null}
        {after ? (
          <img src={after} alt={TOUR_TEXTS.after} style={{ objectFit: fit, clipPath: `inset(0 0 0 ${split}%)` }} />
        ) : null}
      </div>
      <div className="row">
        {after && before ? (
          <label>
            {TOUR_TEXTS.before} / {TOUR_TEXTS.after}
            <input type="range" min={0} max={100} value={split} onChange={(e) => setSplit(Number(e.target.value))} />
          </label>
        ) : null}
        <SlButton size="small" onClick={() => setFill((f) => !f)} aria-pressed={fill}>
          {fill ? TOUR_TEXTS.fit : TOUR_TEXTS.fill}
        </SlButton>
        <ShotDownloads shot={shot} />
      </div>
    </Dialog>
  );
}
