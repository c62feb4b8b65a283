import { FIRST_ROWS, ROWS_PER_FRAME, RowDrip, drawnRows } from '@pkg/node-health/data/row-drip';

const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ key: `r${ from + i }` }));

/** A drip whose later frames run when the test says. */
function manual() {
  const frames: (() => void)[] = [];
  const drawn: number[] = [];
  const drip = new RowDrip((count) => drawn.push(count), (fn) => {
    frames.push(fn);

    return () => frames.splice(frames.indexOf(fn), 1);
  });

  return {
    drip,
    drawn,
    frames,
    runFrames() {
      while (frames.length) {
        (frames.shift() as () => void)();
      }
    },
  };
}

describe('RowDrip', () => {
  it('draws a page of new rows a few at a time, each step in a frame of its own', () => {
    const m = manual();

    expect(m.drip.start(rows(0, 50))).toBe(FIRST_ROWS);
    expect(m.frames).toHaveLength(1);
    m.runFrames();
    // Each later frame draws ROWS_PER_FRAME more, the last one what is left.
    const steps: number[] = [];

    for (let n = FIRST_ROWS + ROWS_PER_FRAME; n < 50; n += ROWS_PER_FRAME) {
      steps.push(n);
    }
    expect(m.drawn).toEqual([...steps, 50]);
    expect(m.frames).toHaveLength(0);
  });

  it('draws at once the rows already on screen, whatever their order, and a few new ones', () => {
    const m = manual();

    m.drip.start(rows(0, 50));
    m.runFrames();
    m.drawn.length = 0;
    expect(m.drip.start(rows(0, 50).reverse())).toBe(50);
    // Rows on screen and up to FIRST_ROWS new ones: all at once.
    expect(m.drip.start([...rows(FIRST_ROWS, 50), ...rows(100, 100 + FIRST_ROWS)])).toBe(50);
    // The new ones first: the first step stops at the first new row past FIRST_ROWS.
    expect(m.drip.start([...rows(200, 230), ...rows(10, 50)])).toBe(FIRST_ROWS);
    expect(m.frames).toHaveLength(1);
    m.runFrames();
    expect(m.drawn[m.drawn.length - 1]).toBe(70);
  });

  it('draws a small page at once, and a new page or stop cancels the frames of the last', () => {
    const m = manual();

    expect(m.drip.start(rows(0, FIRST_ROWS))).toBe(FIRST_ROWS);
    expect(m.frames).toHaveLength(0);
    m.drip.start(rows(100, 150));
    expect(m.frames).toHaveLength(1);
    m.drip.start(rows(200, 250));
    expect(m.frames).toHaveLength(1);
    m.drip.stop();
    expect(m.frames).toHaveLength(0);
    expect(m.drawn).toEqual([]);
  });
});

describe('drawnRows', () => {
  const keys = (list: readonly { key: string }[]) => list.map((r) => r.key);

  it('keeps the last page\'s rows under the new ones drawn so far, as many as the page has, none twice', () => {
    const checking = rows(0, 50);
    // The verdicts: five new rows first, then rows of the checking page in another order.
    const verdicts = [...rows(100, 105), ...rows(0, 45).reverse()];
    const shown = drawnRows(verdicts, 10, checking);

    expect(shown).toHaveLength(50);
    expect(keys(shown.slice(0, 10))).toEqual(keys(verdicts.slice(0, 10)));
    expect(new Set(keys(shown)).size).toBe(50);
    // The rows not drawn yet still show as they were, in the order they were.
    expect(shown.slice(10)).toEqual(checking.filter((r) => !keys(verdicts.slice(0, 10)).includes(r.key)).slice(0, 40));
    // Drawn in full: the page alone.
    expect(drawnRows(verdicts, 50, checking)).toBe(verdicts);
  });

  it('never shows more rows than the new page has, nor rows of the last page once nothing is left of it', () => {
    expect(keys(drawnRows(rows(100, 120), 10, rows(0, 50)))).toEqual([...keys(rows(100, 110)), ...keys(rows(0, 10))]);
    expect(keys(drawnRows(rows(100, 150), 10, []))).toEqual(keys(rows(100, 110)));
    expect(drawnRows(rows(100, 105), Number.POSITIVE_INFINITY, rows(0, 50))).toHaveLength(5);
  });
});
