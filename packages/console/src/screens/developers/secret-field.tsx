/** A secret in a read-only field with a copy button ("Copied" for a moment, through the console's clipboard hook). */
import { forwardRef, useId } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { NOTICES } from '@roomwalk/shared';
import { useClipboard } from '../../state/use-clipboard.js';

export const SecretField = forwardRef<HTMLInputElement, { label: string; value: string; note?: string }>(
  function SecretField({ label, value, note }, ref) {
    const id = useId();
    const { state, copy } = useClipboard();
    return (
      <div className="field secret-field">
        <label htmlFor={id}>{label}</label>
        <div className="row nowrap">
          <input
            ref={ref}
            id={id}
            className="secret-value"
            readOnly
            value={value}
            spellCheck={false}
            aria-describedby={note ? `${id}-note` : undefined}
            onFocus={(e) => e.currentTarget.select()}
          />
          <SlButton onClick={() => void copy(value)} loading={state === 'copying'} aria-live="polite">
            <SlIcon slot="prefix" name="clipboard" />
            {state === 'copied' ? NOTICES.copied : state === 'error' ? NOTICES.copyFailed : 'Copy'}
          </SlButton>
        </div>
        {note ? (
          <p id={`${id}-note`} className="page-note" role="note">
            <SlIcon name="exclamation-triangle" aria-hidden="true" /> {note}
          </p>
        ) : null}
      </div>
    );
  },
);
