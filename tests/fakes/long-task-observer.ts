/**
 * A stand-in for the browser's PerformanceObserver reporting long tasks (jsdom and Node have none). Tests
 * deliver entries by hand, or queue them for takeRecords, the way the browser hands over what it has
 * recorded but not yet delivered.
 */
type Callback = (list: { getEntries: () => { duration: number }[] }) => void;

export class FakeLongTaskObserver {
  static supportedEntryTypes: string[] = ['longtask'];
  static last: FakeLongTaskObserver | null = null;
  observed: unknown = null;
  disconnected = false;
  pending: { duration: number }[] = [];

  constructor(private callback: Callback) {
    FakeLongTaskObserver.last = this;
  }

  observe(options: unknown) {
    this.observed = options;
  }

  deliver(...durations: number[]) {
    this.callback({ getEntries: () => durations.map((duration) => ({ duration })) });
  }

  takeRecords() {
    const out = this.pending;

    this.pending = [];

    return out;
  }

  disconnect() {
    this.disconnected = true;
  }
}

/**
 * Puts an observer class (or undefined, a browser without one) in place of the global PerformanceObserver;
 * the returned function puts the original back.
 */
export function installLongTaskObserver(observer: unknown): () => void {
  const original = (globalThis as any).PerformanceObserver;

  (globalThis as any).PerformanceObserver = observer;

  return () => {
    (globalThis as any).PerformanceObserver = original;
    FakeLongTaskObserver.supportedEntryTypes = ['longtask'];
    FakeLongTaskObserver.last = null;
  };
}
