/** Company dialog: the tours' accent colour (Custom Company Branding). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { BRANDING_TEXTS, ERROR_TEXTS } from '@roomwalk/shared';
import { CompanyDialog } from './company-dialog.js';
import { createSessionStore } from '../../session/session-store.js';
import { renderRoute, stubFetch, validToken } from '../../test/helpers.js';

vi.mock('graphql-ws', () => ({ createClient: () => ({ subscribe: () => () => undefined }) }));
afterEach(() => vi.unstubAllGlobals());

const company = { name: 'Villa Estates', address: null, vatno: null, countrycode: 'en_ZA' };
const branding = () => ({
  body: {
    data: {
      me: {
        __typename: 'Me',
        user: { __typename: 'User', id: 'u', company: { __typename: 'Company', id: 'c', accentColor: '#0b5394' } },
      },
    },
  },
});

function renderDialog(canEditLogo: boolean, refuse?: { code: string; message: string }) {
  const store = createSessionStore({ log: () => undefined });
  store.login(validToken([canEditLogo ? 'basic' : 'entry']), 'roomwalk');
  const fetch = stubFetch({
    CompanyBranding: branding,
    CompanySave: (b) =>
      refuse
        ? { body: { data: null, errors: [{ message: refuse.message, extensions: { code: refuse.code } }] } }
        : {
            body: {
              data: {
                companySave: {
                  __typename: 'Company',
                  id: 'c',
                  name: 'Villa Estates',
                  address: null,
                  vatno: null,
                  countrycode: 'en_ZA',
                  logoimageurl: null,
                  accentColor:
                    (b as { variables: { input: { accentColor?: string } } }).variables.input.accentColor ?? '#0b5394',
                },
              },
            },
          },
  });
  vi.stubGlobal('fetch', fetch.impl);
  renderRoute(
    <CompanyDialog
      open
      company={company}
      canEditLogo={canEditLogo}
      onClose={() => undefined}
      onSaved={() => undefined}
    />,
    { path: '/', route: '/', store },
  );
  return fetch;
}
const saves = (f: ReturnType<typeof stubFetch>) =>
  f.calls.filter((c) => (c.body as { operationName?: string } | null)?.operationName === 'CompanySave');

describe('Company dialog: accent colour', () => {
  it('refuses a colour too light for white text in words, and saves a valid one', async () => {
    const f = renderDialog(true);
    const field = screen.getByLabelText('Accent colour of your tours');
    fireEvent.change(field, { target: { value: '#ffeb3b' } });
    fireEvent.blur(field);
    expect(await screen.findByText(BRANDING_TEXTS.accentTooLight)).toBeInTheDocument();
    fireEvent.click(screen.getByText('Save'));
    await new Promise((r) => setTimeout(r, 0));
    expect(saves(f)).toHaveLength(0);
    fireEvent.change(field, { target: { value: '#8A1C7C' } });
    expect(screen.queryByText(BRANDING_TEXTS.accentTooLight)).toBeNull();
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(saves(f)).toHaveLength(1));
    expect((saves(f)[0]!.body as { variables: { input: { accentColor: string } } }).variables.input.accentColor).toBe(
      '#8A1C7C',
    );
  });

  it('says a logo that is not an image is not one, in the dialog, and does not send it', async () => {
    const f = renderDialog(true);
    const pdf = new File(['%PDF-1.4'], 'logo.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByLabelText('Company logo'), { target: { files: [pdf] } });
    expect(await screen.findByText(ERROR_TEXTS.notAnImage)).toBeInTheDocument();
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(saves(f)).toHaveLength(1));
    expect(
      (saves(f)[0]!.body as { variables: { input: { logoImage: unknown } } }).variables.input.logoImage,
    ).toBeNull();
  });

  it("the server's reason for a logo stands alone in the dialog: no 'Failed to save profile' beside it (it is the company)", async () => {
    renderDialog(true, { code: 'UPLOAD_INVALID', message: ERROR_TEXTS.notAnImage });
    fireEvent.click(screen.getByText('Save'));
    expect(await screen.findByText(ERROR_TEXTS.notAnImage)).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByText('Failed to save profile')).toBeNull();
  });

  it('below Basic the field is disabled with the plan hint', () => {
    renderDialog(false);
    expect(screen.getByLabelText('Accent colour of your tours')).toBeDisabled();
    expect(screen.getByText(BRANDING_TEXTS.planHint)).toBeInTheDocument();
  });
});
