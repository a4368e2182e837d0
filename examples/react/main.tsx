// Mounts TourPage: the React example's entry. Bundle it with your bundler (the test bundles it with esbuild) and load
// it on any page with a <div id="root">. Without ?tourId= / ?api= it shows the README's tour on a local `npm start`.
import { createRoot } from 'react-dom/client';
import { TourPage } from './TourPage.js';

const q = new URLSearchParams(location.search);
const tourId = q.get('tourId') ?? 'tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10';
const api = q.get('api') ?? 'http://localhost:4000';

createRoot(document.getElementById('root')!).render(<TourPage tourId={tourId} api={api} />);
