import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { profileSchema } from '@roomwalk/shared';
import { PhoneInput } from './phone-input.js';

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <PhoneInput label="Contact Number" value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

function type(text: string) {
  fireEvent.change(screen.getByLabelText('Contact Number'), { target: { value: text } });
  return screen.getByTestId('value').textContent ?? '';
}

const valid = (contactNumber: string) => profileSchema.safeParse({ name: 'A', surname: 'B', contactNumber }).success;

describe('Contact number input', () => {
  it('accepts a number typed in international form beside South Africa', () => {
    render(<Harness />);
    expect((screen.getByLabelText('Country calling code') as HTMLSelectElement).value).toBe('ZA');
    const value = type('+27 82 555 1234');
    expect(value).toBe('+27 825551234');
    expect(valid(value)).toBe(true);
  });

  it('accepts national input for the chosen country', () => {
    render(<Harness />);
    expect(type('082 555 1234')).toBe('+27 825551234');
    fireEvent.change(screen.getByLabelText('Country calling code'), { target: { value: 'GB' } });
    const value = type('020 7946 0958');
    expect(value).toBe('+44 2079460958');
    expect(valid(value)).toBe(true);
  });

  it('takes a UK number typed as +44 while South Africa is selected, and the selector follows it', () => {
    render(<Harness />);
    const value = type('+44 20 7946 0958');
    expect(value).toBe('+44 2079460958');
    expect(valid(value)).toBe(true);
    expect((screen.getByLabelText('Country calling code') as HTMLSelectElement).value).toBe('GB');
  });

  it('still refuses text that is not a phone number', () => {
    render(<Harness />);
    expect(valid(type('12'))).toBe(false);
    expect(valid(type('+27 12'))).toBe(false);
  });
});
