/**
 * The table's rows drawn a few at a time. The table keys a page's rows by their place on it (HealthTable), so a
 * new page is drawn over the rows there: a place that shows the same record as before is only patched, at once;
 * a place that shows another record (the verdicts replacing the checking rows, another page or sort) is drawn
 * over, REPLACED_PER_FRAME a frame; a place that had no row yet is mounted, FIRST_ROWS with the page and then
 * ROWS_PER_FRAME a frame (mounting a row of the shell's SortableTable with its cells costs the page a millisecond
 * or more). Each frame is a task of its own, so no page of 50 rows holds the main thread in one long task; until
 * its turn, a place keeps the row drawn there before. A refresh that changes nothing, or a few rows, is drawn at
 * once.
 */
import { nextFrame } from './scheduling';

/** New rows mounted with the page (a screenful, and more than a small cluster has) */
export const FIRST_ROWS = 20;

/** New rows mounted in each later frame */
export const ROWS_PER_FRAME = 15;

/** Places drawn over with another record, with the page and in each later frame */
export const REPLACED_PER_FRAME = 25;

/** A row as the drip sees it: its place (the table's key for it) and the record it shows there. */
export interface DripRow {
  key: string;
  record: string;
}

/** Runs `fn` later; answers a function that cancels it. */
export type Later = (fn: () => void) => () => void;

export class RowDrip {
  /** the record shown at each place on screen */
  private onScreen = new Map<string, string>();
  private cancel: (() => void) | null = null;
  private readonly draw: (count: number) => void;
  private readonly later: Later;

  /** `draw`: how many of the rows last started to draw now (called for the later frames) */
  constructor(draw: (count: number) => void, later: Later = nextFrame) {
    this.draw = draw;
    this.later = later;
  }

  /** New rows for the table: answers how many of them to draw now; the rest are given to `draw` in later frames. */
  start(rows: readonly DripRow[]): number {
    this.stop();

    return this.drawn(rows, this.upTo(rows, 0, FIRST_ROWS, REPLACED_PER_FRAME));
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }

  /**
   * How many rows from the start to draw: up to `from`, and after it the places that show the same record, up to
   * `fresh` places that had no row and `others` that showed another record.
   */
  private upTo(rows: readonly DripRow[], from: number, fresh: number, others: number): number {
    let n = from;

    for (let mounts = fresh, replaced = others; n < rows.length; n++) {
      const before = this.onScreen.get(rows[n].key);

      if (before === rows[n].record) {
        continue;
      }
      if (before === undefined ? mounts-- === 0 : replaced-- === 0) {
        break;
      }
    }

    return n;
  }

  private drawn(rows: readonly DripRow[], count: number): number {
    // The places after `count` keep what they showed; those past the page are gone.
    const onScreen = new Map<string, string>();

    rows.forEach((row, i) => {
      const record = i < count ? row.record : this.onScreen.get(row.key);

      if (record !== undefined) {
        onScreen.set(row.key, record);
      }
    });
    this.onScreen = onScreen;
    if (count < rows.length) {
      this.cancel = this.later(() => {
        this.cancel = null;
        this.draw(this.drawn(rows, this.upTo(rows, count, ROWS_PER_FRAME, REPLACED_PER_FRAME)));
      });
    }

    return count;
  }
}
