/**
 * When the tab's work on the main thread goes on: in the next task, the next frame, or after the next paint. The
 * first load waits for the checking rows to paint (tab-runtime.ts), the store's lists are copied a part a task
 * (store-sync.ts), and a page of rows is drawn a few a frame (row-drip.ts).
 */

/**
 * The next animation frame, or a task where the browser runs none (a hidden page; no requestAnimationFrame): what
 * comes first, once.
 */
export function nextFrame(fn: () => void): () => void {
  let done = false;
  const once = () => {
    if (!done) {
      done = true;
      fn();
    }
  };
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(once) : null;
  const timer = setTimeout(once, frame === null ? 0 : 100);

  return () => {
    done = true;
    if (frame !== null) {
      cancelAnimationFrame(frame);
    }
    clearTimeout(timer);
  };
}

/** Lets the page draw and answer the user before going on. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * After the browser has painted what is drawn now: the next animation frame, then a task (what runs in the frame
 * itself comes before its paint); a task where no frame comes (nextFrame).
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    nextFrame(() => setTimeout(resolve, 0));
  });
}
