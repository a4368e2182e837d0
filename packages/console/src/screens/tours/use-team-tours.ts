/** Team Tours' data: each accepted member other than the viewer, with their top five tours (members without any left out). */
import { useQuery } from 'urql';
import { TeamToursQuery } from './tour-operations.js';
import { readTour, type TourCardData } from './tour-card.js';

interface TeamMemberTours {
  id: string;
  name: string;
  tours: TourCardData[];
}

export function useTeamTours(): TeamMemberTours[] {
  const [{ data }] = useQuery({ query: TeamToursQuery, requestPolicy: 'cache-and-network' });
  const members: TeamMemberTours[] = [];
  for (const edge of data?.me.user.company?.invites.edges ?? []) {
    const u = edge.node.user;
    if (!edge.node.accepted || !u || u.id === data?.me.user.id) continue;
    const name = [u.profile?.name, u.profile?.surname].filter(Boolean).join(' ') || u.username;
    const tours = u.topFiveTours.map(readTour);
    if (tours.length) members.push({ id: u.id, name, tours });
  }
  return members;
}
