/** The filming tips carousel: Keep camera steady, Plan route, Widest lens. Moves only when asked to. */
import { useId, useState } from 'react';
import SlIconButton from '@shoelace-style/shoelace/dist/react/icon-button/index.js';
import { TOUR_TEXTS } from '../tours/texts.js';

export function TipsCarousel() {
  const tips = TOUR_TEXTS.tips;
  const [i, setI] = useState(0);
  const id = useId();
  const tip = tips[i]!;
  const go = (d: number) => setI((n) => (n + d + tips.length) % tips.length);
  return (
    <section className="tips" aria-roledescription="carousel" aria-label="Filming tips">
      {/* biome-ignore lint/a11y/useSemanticElements: a carousel slide is a group with a slide role description (WAI-ARIA carousel pattern), not a fieldset */}
      <div
        className="tip"
        role="group"
        aria-roledescription="slide"
        aria-label={`${i + 1} of ${tips.length}`}
        id={id}
        aria-live="polite"
      >
        <h2 className="tip-title">{tip.title}</h2>
        <p>{tip.body}</p>
      </div>
      <div className="tips-controls">
        <SlIconButton name="chevron-left" label="Previous tip" onClick={() => go(-1)} aria-controls={id} />
        <span className="tips-dots" aria-hidden="true">
          {tips.map((t, n) => (
            <span key={t.title} className={n === i ? 'dot dot-on' : 'dot'} />
          ))}
        </span>
        <SlIconButton name="chevron-right" label="Next tip" onClick={() => go(1)} aria-controls={id} />
      </div>
    </section>
  );
}
