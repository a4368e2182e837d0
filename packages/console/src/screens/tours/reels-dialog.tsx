/**
 * Instant Reels: 'Reel N' rows with play and stop and 'Download' ({key}_reel.mp4); 'Generating...' with
 * a progress bar fed by reelProgressUpdated, reloaded 500 ms after 100 %; 'Generation Failed Reel N' with Retry; at
 * most 5 non-failed reels. Until the reels back end lands the server answers NOT_AVAILABLE_YET, which is shown as such.
 */
import { useEffect, useRef, useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import SlProgressBar from '@shoelace-style/shoelace/dist/react/progress-bar/index.js';
import { REEL_STATUS, TIMINGS_MS, formatTexts } from '@roomwalk/shared';
import { Dialog } from '../../ui/dialog.js';
import { Loading } from '../../ui/page.js';
import { TOUR_TEXTS } from './texts.js';
import { useReelProgress, useReels, type Reel } from './use-reels.js';

/** The download name of a reel. */
export const reelFileName = (key: string): string =>
  `${
    key
      .split('/')
      .pop()
      ?.replace(/\.[^.]+$/, '') || key
  }_reel.mp4`;

export function ReelsDialog({ open, tourId, onClose }: { open: boolean; tourId: string; onClose: () => void }) {
  const { reels, loadError, loading, generating, failure, generate: onGenerate, reload } = useReels(tourId, open);

  return (
    <Dialog
      open={open}
      label={TOUR_TEXTS.instantReels}
      onClose={onClose}
      footer={<SlButton onClick={onClose}>{TOUR_TEXTS.close}</SlButton>}
    >
      <p className="muted">{TOUR_TEXTS.reelsCaption}</p>
      {loadError ? (
        <p className="form-failure" role="alert">
          {loadError}
        </p>
      ) : loading ? (
        <Loading />
      ) : (
        <ol className="reel-list" aria-label="Reels">
          {reels.length === 0 ? <li className="muted">{TOUR_TEXTS.noReels}</li> : null}
          {reels.map((reel, i) => (
            <ReelRow key={reel.id} reel={reel} n={i + 1} onReload={reload} onRetry={() => void onGenerate()} />
          ))}
        </ol>
      )}
      <SlButton variant="primary" loading={generating} onClick={() => void onGenerate()}>
        <SlIcon slot="prefix" name="film" />
        {TOUR_TEXTS.generateReel}
      </SlButton>
      {failure ? (
        <p className="form-failure" role="alert">
          {failure}
        </p>
      ) : null}
    </Dialog>
  );
}

function ReelRow({ reel, n, onReload, onRetry }: { reel: Reel; n: number; onReload: () => void; onRetry: () => void }) {
  const status = reel.status.status;
  const progress = useReelProgress(reel, onReload);
  const [playing, setPlaying] = useState(false);
  const [notReady, setNotReady] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const download = async () => {
    if (status !== REEL_STATUS.CREATED || !reel.highURI) {
      setNotReady(true);
      timers.current.push(setTimeout(() => setNotReady(false), TIMINGS_MS.copyFeedback));
      return;
    }
    const res = await fetch(reel.highURI);
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = reelFileName(reel.key);
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const toggle = () => {
    const v = video.current;
    if (!v) return;
    if (playing) {
      v.pause();
      v.currentTime = 0;
      setPlaying(false);
    } else {
      void v.play().then(
        () => setPlaying(true),
        () => setPlaying(false),
      );
    }
  };

  if (status === REEL_STATUS.FAILED) {
    return (
      <li className="reel-row" data-status={status}>
        <span className="form-failure">{formatTexts.reelFailed(n)}</span>
        <SlButton size="small" onClick={onRetry}>
          {TOUR_TEXTS.retry}
        </SlButton>
      </li>
    );
  }
  return (
    <li className="reel-row" data-status={status}>
      <span className="reel-name">{formatTexts.reelName(n)}</span>
      {status === REEL_STATUS.PROCESSING ? (
        <span className="reel-progress">
          {TOUR_TEXTS.generating}
          <SlProgressBar value={progress} label={`${formatTexts.reelName(n)} ${TOUR_TEXTS.generating}`} />
        </span>
      ) : (
        <>
          {reel.highURI ? (
            // biome-ignore lint/a11y/useMediaCaption: a reel has no speech (music and on-screen text only), so there is nothing to caption
            <video
              ref={video}
              src={reel.highURI}
              poster={reel.thumbnailURL ?? undefined}
              playsInline
              onEnded={() => setPlaying(false)}
              className="reel-video"
              aria-label={formatTexts.reelName(n)}
            />
          ) : null}
          <SlButton size="small" onClick={toggle} aria-pressed={playing}>
            <SlIcon slot="prefix" name={playing ? 'stop-fill' : 'play-fill'} />
            {playing ? TOUR_TEXTS.stop : TOUR_TEXTS.play}
          </SlButton>
        </>
      )}
      <SlButton size="small" onClick={() => void download()}>
        <SlIcon slot="prefix" name="download" />
        {TOUR_TEXTS.download}
      </SlButton>
      {notReady ? (
        <span className="muted" role="status">
          {TOUR_TEXTS.reelNotReady}
        </span>
      ) : null}
    </li>
  );
}
