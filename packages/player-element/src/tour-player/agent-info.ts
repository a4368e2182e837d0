import { html, nothing } from 'lit';
import type { PlayerTour } from '../api/types.js';

/** Agent mode's Tour Info panel (desktop, beside the canvas) and the Agent Details card (opened at the tour's end). */
export function renderAgentInfo(tour: PlayerTour, desktop: boolean, cardOpen: boolean, closeCard: () => void) {
  const a = tour.agentProfile;
  const card = html`<h2>Agent Details</h2>
    <p>Name: ${a?.fullname ?? ''}</p>
    <p>Contact Number: ${a?.contactNumber ?? ''}</p>
    <div class="actions">
      ${tour.listingLink ? html`<a class="button" href=${tour.listingLink} target="_blank" rel="noopener">Listing Link</a>` : nothing}
      ${a?.contactNumber ? html`<a class="button" href="https://wa.me/${a.contactNumber.replace(/\D/g, '')}" target="_blank" rel="noopener">Whats Chat</a>` : nothing}
    </div>`;
  return html`${
    desktop
      ? html`<aside class="info-panel" part="info-panel" aria-label="Tour Info"><h2>Tour Info</h2>
          <p>${tour.description || 'No description provided.'}</p>${card}</aside>`
      : nothing
  }
    ${
      cardOpen
        ? html`<div class="overlay" @click=${(e: Event) => e.target === e.currentTarget && closeCard()}>
          <div class="dialog agent-card" part="dialog" role="dialog" aria-label="Agent Details">${card}
            <button class="secondary close" @click=${closeCard}>Close</button></div></div>`
        : nothing
    }`;
}
