/** Third-party licences: a static text generated at build time from the bundled dependency tree. */
import { useCallback, useEffect, useState } from 'react';
import { Page, Loading } from '../../ui/page.js';
import { DataLoadError } from '../../ui/data-load-error.js';

const LICENSES_FILE = '/third-party-licenses.txt';

export default function LicensesPage() {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const load = useCallback(() => {
    setError(null);
    setText(null);
    fetch(LICENSES_FILE, { headers: { Accept: 'text/plain' } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        setText(await res.text());
      })
      .catch((e: unknown) => setError(e instanceof Error ? e : new Error(String(e))));
  }, []);
  useEffect(load, [load]);
  return (
    <Page title="Licenses" back="history" className="legal">
      {error ? (
        <DataLoadError error={error} onRetry={load} />
      ) : text === null ? (
        <Loading />
      ) : (
        <pre data-testid="licenses-text">{text}</pre>
      )}
    </Page>
  );
}
