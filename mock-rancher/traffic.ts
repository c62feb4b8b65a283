/**
 * What the embedded API has sent, in uncompressed bytes: JSON bodies per request and websocket frames. Read by
 * the benchmark (tests/e2e/perf.ts) to tell how many bytes a load or a refresh of the tab costs.
 */
export interface TrafficEntry {
  kind: 'http' | 'ws';
  /** request path with its query, or the websocket's scope ('local' or a cluster id) */
  path: string;
  bytes: number;
}

/** Enough for a few loads of the tab; older entries are dropped so that a long dev session stays small. */
const MAX_ENTRIES = 20000;

export class TrafficMeter {
  private entries: TrafficEntry[] = [];

  record(kind: TrafficEntry['kind'], path: string, bytes: number): void {
    this.entries.push({
      kind, path, bytes
    });
    if (this.entries.length > MAX_ENTRIES) {
      this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    }
  }

  /** Everything sent since the last call. */
  take(): TrafficEntry[] {
    const out = this.entries;

    this.entries = [];

    return out;
  }
}
