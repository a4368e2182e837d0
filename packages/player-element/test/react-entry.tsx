// Bundled by esbuild for the React wrapper test (React is CommonJS; the test runner serves ESM).
import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { TourPlayer } from '../src/react/index.js';

export function mount(container: HTMLElement, props: Record<string, unknown>): Root {
  const root = createRoot(container);
  flushSync(() => root.render(createElement(TourPlayer, props)));
  return root;
}
