/**
 * /embedded_example and /embedded_example/{tourId}: an iframe to the external player, the id taken from the
 * last path segment, or a fixed sample id when that segment is 'embedded_example'.
 */
import { useLocation } from 'react-router-dom';
import { readMeta } from '../../config/page-config.js';
import { Page } from '../../ui/page.js';
import { embedUrl, iframeCode } from '../tours/share-links.js';
import { TOUR_TEXTS } from '../tours/texts.js';
import { EMBED_SAMPLE_TOUR_ID, embeddedTourId } from './player-flags.js';
import '../tours/tours.css';

const SAMPLE_TOUR_META = 'roomwalk-sample-tour-id';

export default function EmbeddedExamplePage() {
  const { pathname } = useLocation();
  const id = embeddedTourId(pathname, readMeta(SAMPLE_TOUR_META) || EMBED_SAMPLE_TOUR_ID);
  return (
    <Page title={TOUR_TEXTS.embeddedExample} className="embedded-example">
      <p>This page embeds a Roomwalk tour with the iframe code below.</p>
      {/* This page has its own cookie banner: the embed gets disableCookies=true, so the visitor sees one banner, not two. */}
      <iframe
        className="embedded-frame"
        src={`${embedUrl(id)}&disableCookies=true`}
        title="Roomwalk tour"
        allow="fullscreen; camera; microphone; clipboard-write"
      />
      <pre className="code-sample">
        <code>{iframeCode(id, 'Roomwalk tour')}</code>
      </pre>
    </Page>
  );
}
