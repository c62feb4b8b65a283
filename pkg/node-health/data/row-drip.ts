/**
 * The table's rows drawn a few at a time. Mounting a row of the shell's SortableTable with its cells costs the
 * page a millisecond or more, so a page of 50 rows it has not drawn yet (the verdicts replacing the checking rows,
 * another page or sort) would hold the main thread in one long task. The rows already on screen (the same key:
 * Vue only patches them) are drawn at once, with up to FIRST_ROWS new ones; the rest come ROWS_PER_FRAME a frame,
 * each frame a task of its own. A refresh that changes nothing, or a few rows, is drawn at once.
 */
import { nextFrame } from './scheduling';

/** New rows drawn with the page (a screenful, and more than a small cluster has) */
export const FIRST_ROWS = 20;

/** New rows drawn in each later frame */
export const ROWS_PER_FRAME = 15;

/** Runs `fn` later; answers a function that cancels it. */
export type Later = (fn: () => void) => () => void;

export class RowDrip {
  private onScreen = new Set<string>();
  private cancel: (() => void) | null = null;
  private readonly draw: (count: number) => void;
  private readonly later: Later;

  /** `draw`: how many of the rows last started to draw now (called for the later frames) */
  constructor(draw: (count: number) => void, later: Later = nextFrame) {
    this.draw = draw;
    this.later = later;
  }

  /** New rows for the table: answers how many of them to draw now; the rest are given to `draw` in later frames. */
  start(rows: readonly { key: string }[]): number {
    this.stop();

    return this.drawn(rows, this.upTo(rows, 0, FIRST_ROWS));
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }

  /** How many rows from the start to draw: up to `from`, and after it rows on screen and up to `fresh` others. */
  private upTo(rows: readonly { key: string }[], from: number, fresh: number): number {
    let n = from;

    for (let left = fresh; n < rows.length; n++) {
      if (!this.onScreen.has(rows[n].key)) {
        if (left === 0) {
          break;
        }
        left--;
      }
    }

    return n;
  }

  private drawn(rows: readonly { key: string }[], count: number): number {
    this.onScreen = new Set(rows.slice(0, count).map((r) => r.key));
    if (count < rows.length) {
      this.cancel = this.later(() => {
        this.cancel = null;
        this.draw(this.drawn(rows, this.upTo(rows, count, ROWS_PER_FRAME)));
      });
    }

    return count;
  }
}
