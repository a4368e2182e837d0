/** One shot on the Professional Photos screen: its picture, status, score, source frame and the actions it allows. */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlTag from '@shoelace-style/shoelace/dist/react/tag/index.js';
import { SHOT_STATUS } from '@roomwalk/shared';
import type { ResultOf } from '../../graphql/graphql.js';
import { TOUR_TEXTS } from '../tours/texts.js';
import type { ShotFields } from './shot-operations.js';
import { shotActions } from './shot-rules.js';

export type Shot = ResultOf<typeof ShotFields>;
const CHIP = { COMPLETED: 'success', PROCESSING: 'primary', FAILED: 'danger' } as const;

interface ShotCardProps {
  shot: Shot;
  room: string;
  busy: string | null;
  stagingAvailable: boolean;
  onOpen: () => void;
  onEnhance: () => void;
  onStage: () => void;
}

export function ShotCard({ shot: s, room, busy, stagingAvailable, onOpen, onEnhance, onStage }: ShotCardProps) {
  const a = shotActions(s);
  const img = s.stagedImageURI ?? s.enhancedImageURI ?? s.originalImageURI;
  return (
    <article className="shot-card card" data-status={s.shotStatus}>
      <button type="button" className="shot-open" onClick={onOpen} aria-label={`Open ${room} photo`} disabled={!img}>
        {img ? (
          <img src={img} alt="" className="tour-thumb" loading="lazy" />
        ) : (
          <div className="tour-thumb tour-thumb-empty" />
        )}
      </button>
      <div className="row">
        <SlTag size="small" variant={CHIP[s.shotStatus as keyof typeof CHIP] ?? 'neutral'}>
          {s.shotStatus}
        </SlTag>
        {s.frameScore != null ? <span>Score {s.frameScore.toFixed(2)}</span> : null}
      </div>
      <p className="muted">
        Clip {s.sourceClipIndex ?? '-'} · Position {s.sourceFramePosition ?? '-'}
      </p>
      {s.shotStatus === SHOT_STATUS.FAILED && s.errorMessage ? <p className="form-failure">{s.errorMessage}</p> : null}
      <div className="row">
        {a.enhance || a.reEnhance ? (
          <SlButton size="small" loading={busy === `e${s.id}`} onClick={onEnhance}>
            {a.enhance ? TOUR_TEXTS.enhance : TOUR_TEXTS.reEnhance}
          </SlButton>
        ) : null}
        {a.stage && stagingAvailable ? (
          <SlButton size="small" loading={busy === `s${s.id}`} onClick={onStage}>
            {TOUR_TEXTS.stage}
          </SlButton>
        ) : null}
        <ShotDownloads shot={s} />
      </div>
    </article>
  );
}

export function ShotDownloads({ shot }: { shot: Shot }) {
  const links = [
    [TOUR_TEXTS.original, shot.originalImageURI],
    [TOUR_TEXTS.enhanced, shot.enhancedImageURI],
    [TOUR_TEXTS.staged, shot.stagedImageURI],
  ] as const;
  return (
    <>
      {links.map(([label, uri]) =>
        uri ? (
          <a key={label} className="sl-like-button" href={uri} download>
            {TOUR_TEXTS.download} {label.toLowerCase()}
          </a>
        ) : null,
      )}
    </>
  );
}
