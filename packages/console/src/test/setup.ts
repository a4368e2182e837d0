/** jsdom setup: DOM matchers, and the browser APIs Shoelace touches that jsdom lacks. */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!Element.prototype.animate) {
  Element.prototype.animate = function animate() {
    const finished = Promise.resolve();
    return {
      finished,
      cancel() {},
      finish() {},
      play() {},
      pause() {},
      addEventListener() {},
      removeEventListener() {},
      onfinish: null,
    } as unknown as Animation;
  };
}
if (!Element.prototype.getAnimations) Element.prototype.getAnimations = () => [];
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// findBy / waitFor wait up to 5 s (Testing Library's default is 1 s): a screen's dialogs are lazy chunks, and on a
// loaded machine (the whole console project beside other suites) their first import alone took over a second. The wait
// ends as soon as the element appears, so a passing test is not slower.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
