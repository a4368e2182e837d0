import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/shoelace.js';
import './styles.css';
import { App } from './app.js';
import { createSessionStore } from './session/session-store.js';

const store = createSessionStore();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
