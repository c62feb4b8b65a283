import { FIRST_ROWS, ROWS_PER_FRAME, RowDrip } from '@pkg/node-health/data/row-drip';

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
    expect(m.drawn).toEqual([FIRST_ROWS + ROWS_PER_FRAME, 50]);
    expect(m.frames).toHaveLength(0);
  });

  it('draws at once the rows already on screen, whatever their order, and a few new ones', () => {
    const m = manual();

    m.drip.start(rows(0, 50));
    m.runFrames();
    m.drawn.length = 0;
    expect(m.drip.start(rows(0, 50).reverse())).toBe(50);
    // 40 on screen and 10 new: all at once.
    expect(m.drip.start([...rows(10, 50), ...rows(100, 110)])).toBe(50);
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
