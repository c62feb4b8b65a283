/**
 * What the embedded API has sent: JSON bodies per request and websocket frames, each in uncompressed bytes and as
 * sent (gzip-compressed for a client that accepts it, as Steve sends them). Read by the benchmark
 * (tests/e2e/perf.ts) to tell how many bytes a load or a refresh of the tab costs.
 */
export interface TrafficEntry {
  kind: 'http' | 'ws';
  /** request path with its query, or the websocket's scope ('local' or a cluster id) */
  path: string;
  /** uncompressed */
  bytes: number;
  /** as sent: the compressed body where it was compressed, else `bytes` */
  sentBytes: number;
}

/** Enough for a few loads of the tab; older entries are dropped so that a long dev session stays small. */
const MAX_ENTRIES = 20000;

export class TrafficMeter {
  private entries: TrafficEntry[] = [];

  record(kind: TrafficEntry['kind'], path: string, bytes: number, sentBytes = bytes): void {
    this.entries.push({
      kind, path, bytes, sentBytes
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
