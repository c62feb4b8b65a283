/**
 * Keeps the tab's data fresh while the user can see it: one refresh at a time, the next one an interval
 * after the previous finished, nothing while the tab or the browser tab is hidden, and an immediate
 * refresh on coming back when the data has grown older than the interval.
 */
/** Fixed-count requests every 15 s while the tab is visible: cheap for Rancher, fresh enough for a stuck node. */
export const POLL_INTERVAL_MS = 15000;

/**
 * A refresh blocks the page while the browser receives and parses the lists and the engine diagnoses them;
 * on a big cluster that is a second or more. The pause between polls grows with it, so that the page is
 * free at least this many times longer than it is busy.
 */
export const IDLE_TO_BUSY = 20;

/** The pause after a refresh that kept the page busy for `busyMs`. */
export function pollInterval(busyMs: number): number {
  return Math.max(POLL_INTERVAL_MS, IDLE_TO_BUSY * (Number.isFinite(busyMs) && busyMs > 0 ? busyMs : 0));
}

export interface PollerOptions {
  /** Pause between the end of one refresh and the start of the next; read before each wait */
  intervalMs: number | (() => number);
  /** One refresh; the poller never starts another while it runs. Rejections are the caller's to report. */
  refresh: () => Promise<void>;
  /** When the data was last loaded (epoch ms), or null before the first load */
  lastLoaded: () => number | null;
  /**
   * false: load once, when first on screen, and never again by itself (a bundle, which does not change); a
   * refresh asked for (refreshNow) still runs. Read before each wait; polls when absent.
   */
  repeat?: () => boolean;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export interface Poller {
  /** Visible or not; the first time it becomes visible it loads */
  setVisible(visible: boolean): void;
  /** Refresh now (the refresh button, after an action); resolves when done */
  refreshNow(): Promise<void>;
  readonly running: boolean;
  stop(): void;
}

export function createPoller(options: PollerOptions): Poller {
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  let visible = false;
  let stopped = false;
  let timer: unknown = null;
  let inFlight: Promise<void> | null = null;
  // When the last attempt ended, successful or not: a failing API must not be asked again at once.
  let lastAttemptEnded: number | null = null;

  const cancelTimer = () => {
    if (timer !== null) {
      clearTimer(timer);
      timer = null;
    }
  };

  const schedule = () => {
    cancelTimer();
    if (stopped || !visible || inFlight) {
      return;
    }
    const loaded = options.lastLoaded();
    const last = loaded === null ? lastAttemptEnded : Math.max(loaded, lastAttemptEnded ?? loaded);

    if (last !== null && options.repeat && !options.repeat()) {
      return;
    }
    const interval = typeof options.intervalMs === 'function' ? options.intervalMs() : options.intervalMs;
    const wait = last === null ? 0 : Math.max(0, last + interval - now());

    timer = setTimer(() => {
      timer = null;
      run();
    }, wait);
  };

  const run = (): Promise<void> => {
    if (inFlight) {
      return inFlight;
    }
    cancelTimer();
    inFlight = (async() => {
      try {
        await options.refresh();
      } catch {
        // Reported by refresh itself; polling carries on.
      } finally {
        inFlight = null;
        lastAttemptEnded = now();
        schedule();
      }
    })();

    return inFlight;
  };

  return {
    setVisible(v: boolean) {
      visible = v;
      if (v) {
        schedule();
      } else {
        cancelTimer();
      }
    },
    refreshNow: () => (stopped ? Promise.resolve() : run()),
    get running() {
      return inFlight !== null;
    },
    stop() {
      stopped = true;
      cancelTimer();
    },
  };
}
