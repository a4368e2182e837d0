import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import { useNavigate } from 'react-router-dom';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { Page } from '../../ui/page.js';

export default function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <Page title="Page not found" narrow>
      <p>{ERROR_TEXTS.notFoundPage}</p>
      <SlButton variant="primary" onClick={() => navigate('/')}>
        Go Home
      </SlButton>
    </Page>
  );
}
