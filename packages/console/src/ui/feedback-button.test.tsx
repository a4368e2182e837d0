import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { FeedbackButton, feedbackDisabled } from './feedback-button.js';

describe('Feedback button and the disabledControls flag', () => {
  it('reads feedback from the comma list in any case', () => {
    expect(feedbackDisabled('?disabledControls=menu,FeedBack')).toBe(true);
    expect(feedbackDisabled('?disabledControls=menu, feedback ')).toBe(true);
    expect(feedbackDisabled('?disabledControls=menu,markers')).toBe(false);
    expect(feedbackDisabled('')).toBe(false);
    // An unbranded (MLS) tour has no outbound control at all.
    expect(feedbackDisabled('?tourId=tour_x&unbranded=true')).toBe(true);
    expect(feedbackDisabled('?unbranded=false')).toBe(false);
  });

  it('is shown normally and hidden in embeds that disable it', () => {
    const { unmount } = render(
      <MemoryRouter initialEntries={['/playerext?tourId=x']}>
        <FeedbackButton />
      </MemoryRouter>,
    );
    expect(screen.getByText('Feedback')).toBeTruthy();
    unmount();
    render(
      <MemoryRouter initialEntries={['/playerext?tourId=x&disabledControls=feedback']}>
        <FeedbackButton />
      </MemoryRouter>,
    );
    expect(screen.queryByText('Feedback')).toBeNull();
  });
});
