/**
 * Starts the tab's Web Worker. The build turns `*.worker.ts` into a function that starts the worker from a Blob
 * (worker-loader, inline: see worker-build.js), so it runs whatever URL Rancher serves the extension from.
 */
import type { WorkerLike } from './session-client';

export function startNodeHealthWorker(): WorkerLike | null {
  if (typeof Worker === 'undefined') {
    return null;
  }
  // Required here, not imported: only the build knows how to make a worker of it, and only a browser runs it.
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const start = require('./node-health.worker.ts').default;

  return typeof start === 'function' ? new start() : null;
}
