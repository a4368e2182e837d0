/** jsdom setup: DOM matchers, and the browser APIs Shoelace touches that jsdom lacks. */
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
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
    return { finished, cancel() {}, finish() {}, play() {}, pause() {}, addEventListener() {}, removeEventListener() {}, onfinish: null } as unknown as Animation;
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

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
