/**
 * The Leads page against a scripted API: a lead through the gate offers Revoke pass, which takes it back
 * (tourLeadRevokePass) and says so; a waiting lead is approved; a revoked lead offers nothing more.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import LeadsPage from './leads-page.js';
import { ADMIN_ROLES, renderPage } from '../../test/api-harness.js';

const lead = (id: string, name: string, gate: string | null) => ({
  __typename: 'TourLead',
  id,
  name,
  surname: null,
  email: `${name.toLowerCase()}@example.com`,
  contactNumber: null,
  leadType: 'CONTACT',
  tourId: 'tour_1',
  gate,
  stoppedAt: 'Kitchen',
  createdAt: '2026-12-01T10:00:00.000Z',
  tourTitle: 'Sunny flat',
  roomPath: [],
});

describe('Leads: taking a pass back', () => {
  it('revokes the pass of a lead through the gate, and offers nothing for a waiting or revoked one', async () => {
    let gate = 'APPROVED';
    const { calls } = renderPage(<LeadsPage />, {
      path: '/leads',
      roles: ADMIN_ROLES,
      answers: {
        Leads: () => ({
          waiting: [lead('lead_w', 'Wendy', 'WAITING')],
          all: [lead('lead_a', 'Vera', gate), lead('lead_w', 'Wendy', 'WAITING')],
        }),
        LeadRevokePass: () => {
          gate = 'REVOKED';
          return { tourLeadRevokePass: { __typename: 'TourLead', id: 'lead_a', gate } };
        },
      },
    });
    const revoke = await screen.findByRole('button', { name: "Revoke Vera's pass" });
    expect(screen.queryByRole('button', { name: "Revoke Wendy's pass" })).toBeNull();
    fireEvent.click(revoke);
    await screen.findByText("Vera's pass is taken back: the tour stops at the form for them.");
    expect(calls.find((c) => c.operationName === 'LeadRevokePass')?.variables).toEqual({ id: 'lead_a' });
    await waitFor(() => expect(screen.queryByRole('button', { name: "Revoke Vera's pass" })).toBeNull());
    expect(screen.getByText(/Pass revoked/)).toBeTruthy();
  });
});
