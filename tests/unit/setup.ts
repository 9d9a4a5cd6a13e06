import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { preloadToasts } from '../../src/lib/notify';
import { server } from './msw/server';

// Lazy routes and retries take a moment on a busy machine; 1 s (the default) flakes, and 3 s
// did under a load of 7 on 2 cores.
configure({ asyncUtilTimeout: 5000 });

// A request no test mocked is a failure, not a silent pass-through (architecture guide).
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// The app loads the toast library with its first toast (issue 8); loaded here, every toast shows
// as soon as it is raised, as it does in the app from the second toast on.
beforeAll(async () => {
  await preloadToasts();
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  server.events.removeAllListeners();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterAll(() => server.close());

// jsdom lacks matchMedia and scrollTo; several UI libraries probe them.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
window.scrollTo = () => {};
