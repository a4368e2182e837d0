/**
 * Sharing Options' "Print flyer" (docs/embedding.md "Open-house flyer"): A4 or US Letter, branded or unbranded (for
 * MLS boards), downloaded as a PDF from the server with the agent's session.
 */
import { useId, useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { FLYER_SIZES, FLYER_TEXTS, type FlyerSize } from '@roomwalk/shared';
import { serverUrl } from '../../config/page-config.js';
import { useSession } from '../../session/session-context.js';

const PAPER_LABEL: Record<FlyerSize, string> = { A4: FLYER_TEXTS.a4, LETTER: FLYER_TEXTS.letter };

/** The paper most printers where the browser says it is hold: US Letter in the US and Canada, A4 elsewhere. */
export function defaultPaper(
  locale: string = typeof navigator === 'undefined' ? 'en-GB' : navigator.language,
): FlyerSize {
  return /-(US|CA)\b/i.test(locale) ? 'LETTER' : 'A4';
}

/** The flyer's address on the server. */
export const flyerUrl = (tourId: string, paper: FlyerSize, unbranded: boolean, base: string = serverUrl()) =>
  `${base}/tours/${encodeURIComponent(tourId)}/flyer.pdf?paper=${paper}${unbranded ? '&unbranded=true' : ''}`;

export function FlyerSection({ tourId }: { tourId: string }) {
  const id = useId();
  const { token } = useSession();
  const [paper, setPaper] = useState<FlyerSize>(defaultPaper);
  const [unbranded, setUnbranded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const print = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const res = await fetch(flyerUrl(tourId, paper, unbranded), {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      if (!res.ok) throw new Error(String(res.status));
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'flyer.pdf';
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="field" data-testid="flyer">
      <label htmlFor={`${id}-paper`}>{FLYER_TEXTS.paperSize}</label>
      <div className="row">
        <select id={`${id}-paper`} value={paper} onChange={(e) => setPaper(e.currentTarget.value as FlyerSize)}>
          {FLYER_SIZES.map((s) => (
            <option key={s} value={s}>
              {PAPER_LABEL[s]}
            </option>
          ))}
        </select>
        <label className="checkbox">
          <input type="checkbox" checked={unbranded} onChange={(e) => setUnbranded(e.target.checked)} />
          {FLYER_TEXTS.unbranded}
        </label>
        <SlButton onClick={() => void print()} loading={busy}>
          {FLYER_TEXTS.action}
        </SlButton>
      </div>
      {failed ? (
        <p className="form-failure" role="alert">
          {FLYER_TEXTS.failed}
        </p>
      ) : null}
    </div>
  );
}
