import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { preloadToasts, toastLibrary } from '../../src/lib/notify';
import { server } from './msw/server';

// Lazy routes and retries take a moment on a busy machine; 1 s (the default) flakes, 3 s did under
// a load of 7 on 2 cores, and 5 s did for a screen's first render at a load of 10 (four files'
// first renders in one run). An upper bound, not a wait: a screen that shows at once is found at once.
configure({ asyncUtilTimeout: 10_000 });

// A request no test mocked is a failure, not a silent pass-through (architecture guide).
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// The app loads the toast library with its first toast (issue 8); loaded here, every toast shows
// as soon as it is raised, as it does in the app from the second toast on.
beforeAll(async () => {
  await preloadToasts();
});
// A toast raised while no container is mounted (a request of the previous test answering after
// its cleanup) waits in the library's queue and would show in the next test's container: dropped
// at both ends of every test (the library's module lives on across the worker's files).
const dropQueuedToasts = () => toastLibrary.get()?.toast.dismiss();
beforeEach(dropQueuedToasts);
afterEach(() => {
  cleanup();
  dropQueuedToasts();
  server.resetHandlers();
  server.events.removeAllListeners();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterAll(() => server.close());

// sweetalert2 gives the focus back 100 ms after a dialog closes (its RESTORE_FOCUS_TIMEOUT), on a
// timer of its own; a file that ends sooner would have the environment torn down first, and the
// timer then fails on a missing HTMLElement (an unhandled error that fails the run). A file that
// showed a dialog waits for that timer before it ends: ours is set later and for longer, so it
// fires after theirs whatever the machine's load.
let dialogShown = false;
const dialogWatch = new MutationObserver(() => {
  if (document.querySelector('.swal2-container')) dialogShown = true;
});
beforeAll(() => dialogWatch.observe(document.body, { childList: true, subtree: true }));
afterAll(async () => {
  dialogWatch.disconnect();
  if (dialogShown) await new Promise((resolve) => setTimeout(resolve, 150));
});

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
