/**
 * Team Tours: each invited member's top five tours, labelled with the name cut at 15 characters; the name
 * goes to /team.
 */
import { Link } from 'react-router-dom';
import { formatTexts } from '@roomwalk/shared';
import { TourCard, type TourCardData } from './tour-card.js';
import { TOUR_TEXTS } from './texts.js';
import { useTeamTours } from './use-team-tours.js';

export function TeamTours({ onOpen }: { onOpen: (tour: TourCardData) => void }) {
  const members = useTeamTours();
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
