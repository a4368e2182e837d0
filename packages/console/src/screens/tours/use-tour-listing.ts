/**
 * Listed or unlisted, applied at once: the tour's access and listing, what the server last confirmed (before the
 * query is read again), and its refusal in its words.
 */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { TOUR_ACCESS } from '@roomwalk/shared';
import { describeFailure, serverMessage } from '../../graphql/errors.js';
import { TourListedSetMutation, TourListingQuery } from './share-anywhere-operations.js';

export function useTourListing(tourId: string) {
  const [listing] = useQuery({ query: TourListingQuery, variables: { id: tourId } });
  const [state, setListed] = useMutation(TourListedSetMutation);
  const [failure, setFailure] = useState<string | null>(null);
  // What the server last confirmed (its answer to the switch), before the query is read again.
  const [confirmed, setConfirmed] = useState<boolean | null>(null);
  const tour = listing.data?.tour;
  return {
    /** False until the tour is read. */
    ready: !!tour,
    isPublic: tour?.access === TOUR_ACCESS.public,
    listed: confirmed ?? tour?.listed ?? false,
    saving: state.fetching,
    failure,
    setListed: async (listed: boolean) => {
      setFailure(null);
      const r = await setListed({ input: { id: tourId, listed } });
      if (r.error) setFailure(describeFailure(r.error, serverMessage(r.error)));
      else if (r.data) setConfirmed(r.data.tourListedSet.listed);
    },
  };
}
