/** The page's Back with back="history" (legal pages): one entry back, or home when the page opened in a new tab. */
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Page } from './page.js';
import { LocationProbe } from '../test/helpers.js';

function renderAt(entries: string[]) {
  const utils = render(
    <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
      <LocationProbe />
      <Routes>
        <Route
          path="/terms"
          element={
            <Page title="Terms & Conditions" back="history">
              <p>terms</p>
            </Page>
          }
        />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
    </MemoryRouter>,
  );
  const back = utils.container.querySelector('sl-icon-button.back-button');
  expect(back).not.toBeNull();
  return back!;
}

describe('Page Back with history', () => {
  it('goes back one entry inside the app', () => {
    fireEvent.click(renderAt(['/signup', '/terms']));
    expect(screen.getByTestId('location')).toHaveTextContent('/signup');
  });

  it('goes home when there is no earlier entry (opened in a new tab), instead of leaving the app', () => {
    fireEvent.click(renderAt(['/terms']));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});
