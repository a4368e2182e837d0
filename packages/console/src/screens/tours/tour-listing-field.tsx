/**
 * Listed or unlisted (docs/embedding.md "Listed or unlisted"), in Tour Info: "Search engines may show this tour". Off
 * by default (unlisted: the tour's pages say noindex). Applied at once, as a switch: only a public tour may be listed,
 * so the box is off and disabled for a password or company-only tour, and the server's refusal is shown in its words.
 */
import { useId } from 'react';
import { SHARE_LISTING_TEXTS } from '@roomwalk/shared';
import { useTourListing } from './use-tour-listing.js';

export function TourListingField({ tourId }: { tourId: string }) {
  const id = useId();
  const { ready, isPublic, listed: listedNow, saving, failure, setListed } = useTourListing(tourId);
  if (!ready) return null;
  return (
    <fieldset className="privacy" data-testid="tour-listing">
      <legend>{SHARE_LISTING_TEXTS.legend}</legend>
      <label className="checkbox">
        <input
          type="checkbox"
          aria-describedby={`${id}-hint`}
          checked={listedNow && isPublic}
          disabled={saving || (!isPublic && !listedNow)}
          onChange={(e) => void setListed(e.target.checked)}
        />
        {SHARE_LISTING_TEXTS.label}
      </label>
      <p id={`${id}-hint`} className="hint">
        {isPublic ? SHARE_LISTING_TEXTS.hint : SHARE_LISTING_TEXTS.notPublic}
      </p>
      {failure ? (
        <p className="form-failure" role="alert">
          {failure}
        </p>
      ) : null}
    </fieldset>
  );
}
