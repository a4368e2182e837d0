/**
 * Team Tours: each invited member's top five tours, labelled with the name cut at 15 characters; the name
 * goes to /team.
 */
import { Link } from 'react-router-dom';
import { useQuery } from 'urql';
import { formatTexts } from '@roomwalk/shared';
import { TeamToursQuery } from './tour-operations.js';
import { readTour, TourCard, type TourCardData } from './tour-card.js';
import { TOUR_TEXTS } from './texts.js';

interface TeamMemberTours {
  id: string;
  name: string;
  tours: TourCardData[];
}

export function TeamTours({ onOpen }: { onOpen: (tour: TourCardData) => void }) {
  const [{ data }] = useQuery({ query: TeamToursQuery, requestPolicy: 'cache-and-network' });
  const members: TeamMemberTours[] = [];
  for (const edge of data?.me.user.company?.invites.edges ?? []) {
    const u = edge.node.user;
    if (!edge.node.accepted || !u || u.id === data?.me.user.id) continue;
    const name = [u.profile?.name, u.profile?.surname].filter(Boolean).join(' ') || u.username;
    const tours = u.topFiveTours.map(readTour);
    if (tours.length) members.push({ id: u.id, name, tours });
  }
  if (!members.length) return null;
  return (
    <section className="section tours-section" aria-labelledby="team-tours-title">
      <h2 id="team-tours-title">{TOUR_TEXTS.teamTours}</h2>
      {members.map((m) => (
        <div key={m.id} className="team-member">
          <h3 className="team-member-name">
            <Link to="/team" title={m.name}>
              {formatTexts.teamLabel(m.name)}
            </Link>
          </h3>
          <div className="tour-grid">
            {m.tours.map((t) => (
              <TourCard key={t.id} tour={t} onOpen={onOpen} />
            ))}
          </div>
        </div>
      ))}
    </section>
  );
}
