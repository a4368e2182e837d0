import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'console',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // Room for a loaded machine (CI beside other suites: a screen test that renders four times took over 5 s there);
    // Testing Library's waits end at 5 s (src/test/setup.ts), so a stuck test still fails well before this.
    testTimeout: 30_000,
  },
});
