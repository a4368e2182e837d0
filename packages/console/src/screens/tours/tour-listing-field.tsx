/**
 * Listed or unlisted (docs/embedding.md "Listed or unlisted"), in Tour Info: "Search engines may show this tour". Off
 * by default (unlisted: the tour's pages say noindex). Applied at once, as a switch: only a public tour may be listed,
 * so the box is off and disabled for a password or company-only tour, and the server's refusal is shown in its words.
 */
import { useId, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { SHARE_LISTING_TEXTS, TOUR_ACCESS } from '@roomwalk/shared';
import { describeFailure, serverMessage } from '../../graphql/errors.js';
import { TourListedSetMutation, TourListingQuery } from './share-anywhere-operations.js';

export function TourListingField({ tourId }: { tourId: string }) {
  const id = useId();
  const [listing] = useQuery({ query: TourListingQuery, variables: { id: tourId } });
  const [state, setListed] = useMutation(TourListedSetMutation);
  const [failure, setFailure] = useState<string | null>(null);
  // What the server last confirmed (its answer to the switch), before the query is read again.
  const [confirmed, setConfirmed] = useState<boolean | null>(null);
  const tour = listing.data?.tour;
  if (!tour) return null;
  const isPublic = tour.access === TOUR_ACCESS.public;
  const listedNow = confirmed ?? tour.listed;
  const onChange = async (listed: boolean) => {
    setFailure(null);
    const r = await setListed({ input: { id: tourId, listed } });
    if (r.error) setFailure(describeFailure(r.error, serverMessage(r.error)));
    else if (r.data) setConfirmed(r.data.tourListedSet.listed);
  };
  return (
    <fieldset className="privacy" data-testid="tour-listing">
      <legend>{SHARE_LISTING_TEXTS.legend}</legend>
      <label className="checkbox">
        <input
          type="checkbox"
          aria-describedby={`${id}-hint`}
          checked={listedNow && isPublic}
          disabled={state.fetching || (!isPublic && !listedNow)}
          onChange={(e) => void onChange(e.target.checked)}
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
