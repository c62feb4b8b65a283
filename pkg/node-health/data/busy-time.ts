/**
 * How long the page could not respond while something ran. On a big cluster the browser spends longer
 * receiving and parsing the lists than the engine spends diagnosing them (2,000 nodes: about a second
 * against a few hundred milliseconds), and a timer around the diagnosis sees none of that. The browser's
 * Long Tasks API reports every stretch of 50 ms or more in which the page's main thread was blocked.
 */
export interface BusyMeter {
  /** Milliseconds of long tasks since the meter started, or null where the browser does not report them */
  stop(): number | null;
}

const UNSUPPORTED: BusyMeter = { stop: () => null };

export function startBusyMeter(): BusyMeter {
  const Observer = typeof PerformanceObserver === 'undefined' ? undefined : PerformanceObserver;

  if (!Observer?.supportedEntryTypes?.includes('longtask')) {
    return UNSUPPORTED;
  }
  let busyMs = 0;
  const add = (entries: PerformanceEntryList) => {
    for (const entry of entries) {
      busyMs += entry.duration;
    }
  };
  const observer = new Observer((list) => add(list.getEntries()));

  try {
    observer.observe({ type: 'longtask' });
  } catch {
    return UNSUPPORTED;
  }
  let stopped: number | null = null;

  return {
    stop() {
      if (stopped === null) {
        // Entries the browser has recorded but not yet delivered to the callback.
        add(observer.takeRecords());
        observer.disconnect();
        stopped = Math.round(busyMs);
      }

      return stopped;
    },
  };
}
