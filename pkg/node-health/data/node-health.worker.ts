/**
 * The tab's Web Worker: reads the cluster's lists from Steve, parses, joins and diagnoses them off the page's
 * main thread (session.ts). Bundled into the extension as a Blob (worker-loader, inline), so that it starts
 * whatever URL Rancher serves the extension from. The engine is the same module the page and the command line use.
 */
import { ChangeWatch } from './changes';
import { fetchDispatch } from './fetch-dispatch';
import { serveSession } from './protocol';
import type { FromWorker, ToWorker } from './protocol';
import { TabSession } from './session';

const scope = self as unknown as {
  onmessage: ((ev: { data: ToWorker }) => void) | null;
  postMessage(message: FromWorker): void;
  fetch: typeof fetch;
};

const serve = serveSession((init) => new TabSession(
  fetchDispatch(init.origin, init.csrf, (url, request) => scope.fetch(url, request)),
  init.watch && typeof WebSocket !== 'undefined' ? new ChangeWatch(init.origin, (url) => new WebSocket(url)) : null
), (answer) => scope.postMessage(answer));

scope.onmessage = (ev) => serve(ev.data);
