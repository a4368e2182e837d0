/**
 * Share anywhere in the console (issue 41): Tour Info's "Search engines may show this tour" (tourListedSet, off for a
 * protected tour, the server's refusal in its words) and Sharing Options' "Print flyer" (the PDF asked with the
 * session, at the paper chosen, unbranded when ticked).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { stubFetch } from '../../test/helpers.js';
import { defaultPaper, flyerUrl } from './flyer-section.js';
import { TOUR_ID as ID, renderEditInfo, renderSharing } from './tour-dialog-test-support.js';

vi.mock('graphql-ws', () => ({ createClient: () => ({ subscribe: () => () => undefined }) }));

afterEach(() => vi.unstubAllGlobals());

function stubListing(access: string, refuse?: string) {
  const sent: unknown[] = [];
  const stub = stubFetch({
    TourPrivacy: () => ({
      body: {
        data: { tour: { __typename: 'Tour', id: ID, blurFaces: true, blurredClips: [], liveViewing: false, access } },
      },
    }),
    TourListing: () => ({ body: { data: { tour: { __typename: 'Tour', id: ID, listed: false, access } } } }),
    TourListedSet: (body) => {
      const v = (body as { variables: { input: { listed: boolean } } }).variables;
      sent.push(v);
      return refuse
        ? { body: { data: null, errors: [{ message: refuse, extensions: { code: 'BAD_USER_INPUT' } }] } }
        : { body: { data: { tourListedSet: { __typename: 'Tour', id: ID, listed: v.input.listed } } } };
    },
  });
  vi.stubGlobal('fetch', stub.impl);
  return { sent, calls: stub.calls };
}

describe('Tour Info: Search engines may show this tour', () => {
  it('is off by default and lists a public tour at once', async () => {
    const { sent } = stubListing('PUBLIC');
    renderEditInfo();
    const box = await screen.findByLabelText('Search engines may show this tour');
    expect(box).not.toBeChecked();
    expect(screen.getByText('Off: the tour is unlisted. Only people with the link find it.')).toBeInTheDocument();
    fireEvent.click(box);
    await waitFor(() => expect(sent).toEqual([{ input: { id: ID, listed: true } }]));
    await waitFor(() => expect(box).toBeChecked());
  });

  it('is off and disabled for a password tour, saying why', async () => {
    stubListing('PASSWORD');
    renderEditInfo();
    expect(await screen.findByLabelText('Search engines may show this tour')).toBeDisabled();
    expect(
      screen.getByText('Only a tour anyone with the link can see may be shown by search engines.'),
    ).toBeInTheDocument();
  });

  it("shows the server's refusal in its words", async () => {
    const refusal = 'Only a tour anyone with the link can see may be shown by search engines.';
    stubListing('PUBLIC', refusal);
    renderEditInfo();
    fireEvent.click(await screen.findByLabelText('Search engines may show this tour'));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
  });
});

describe('Sharing Options: Print flyer', () => {
  it('asks the server for the PDF with the session, at the paper chosen, unbranded when ticked', async () => {
    const pdf = stubFetch({
      TourShareSettings: () => ({
        body: { data: { tour: { __typename: 'Tour', id: ID, liveViewing: false, access: 'PUBLIC' } } },
      }),
      'flyer.pdf?paper=LETTER&unbranded=true': () => ({ body: {} }),
    });
    vi.stubGlobal('fetch', pdf.impl);
    const created = vi.fn(() => 'blob:flyer');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: () => undefined }));
    renderSharing();
    fireEvent.change(await screen.findByLabelText('Paper size'), { target: { value: 'LETTER' } });
    fireEvent.click(screen.getByLabelText('Unbranded (no company, no agent)'));
    fireEvent.click(screen.getByText('Print flyer'));
    await waitFor(() => expect(created).toHaveBeenCalled());
    const call = pdf.calls.find((c) => c.url.includes('/flyer.pdf'))!;
    expect(call.url).toBe(flyerUrl(ID, 'LETTER', true));
    expect(call.url).toMatch(new RegExp(`/tours/${ID}/flyer\\.pdf\\?paper=LETTER&unbranded=true$`));
    expect(call.headers.get('authorization')).toMatch(/^Bearer /);
  });

  it('picks US Letter in the US and Canada, A4 elsewhere', () => {
    expect(defaultPaper('en-US')).toBe('LETTER');
    expect(defaultPaper('fr-CA')).toBe('LETTER');
    expect(defaultPaper('en-GB')).toBe('A4');
    expect(defaultPaper('de')).toBe('A4');
  });
});
