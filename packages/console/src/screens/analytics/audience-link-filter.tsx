/**
 * "Visits from": all visits, or the visits of one audience link (docs/access-and-privacy.md). Tour Analytics lists the
 * tour's links (revoked and expired ones too: their visits stay theirs); the seller report lists the names its
 * answer gives. A native select: labelled, keyboard-usable, the phone's own picker.
 */
import { useId } from 'react';

export interface LinkOption {
  id: string;
  label: string;
}

export const ALL_VISITS = '';

export function AudienceLinkFilter({
  links,
  value,
  onChange,
}: {
  links: readonly LinkOption[];
  value: string;
  onChange: (id: string) => void;
}) {
  const id = useId();
  if (!links.length) return null;
  return (
    <div className="field link-filter">
      <label htmlFor={id}>Visits from</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        data-testid="audience-link-filter"
      >
        <option value={ALL_VISITS}>All visits</option>
        {links.map((l) => (
          <option key={l.id} value={l.id}>
            {l.label}
          </option>
        ))}
      </select>
    </div>
  );
}
