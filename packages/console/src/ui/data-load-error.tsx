/** The generic data-load error panel: Show More / Less Information and Retry. */
import { useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { ERROR_TEXTS } from '@roomwalk/shared';
import type { CombinedError } from 'urql';
import { describeFailure, failureCode } from '../graphql/errors.js';

export function DataLoadError({
  error,
  onRetry,
}: {
  error: CombinedError | Error | null | undefined;
  onRetry: () => void;
}) {
  const [more, setMore] = useState(false);
  const detail =
    error && 'graphQLErrors' in error
      ? `${failureCode(error) ?? ''}: ${describeFailure(error)}`
      : (error?.message ?? '');
  return (
    <section className="data-load-error" role="alert" aria-labelledby="data-load-error-title">
      <h2 id="data-load-error-title">{ERROR_TEXTS.dataLoadError}</h2>
      <div className="row">
        <SlButton variant="text" aria-expanded={more} onClick={() => setMore((m) => !m)}>
          {more ? 'Show Less Information' : 'Show More Information'}
        </SlButton>
        <SlButton variant="primary" onClick={onRetry}>
          Retry
        </SlButton>
      </div>
      {more ? <pre className="data-load-error-detail">{detail}</pre> : null}
    </section>
  );
}
