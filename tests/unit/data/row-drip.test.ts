import { FIRST_ROWS, REPLACED_PER_FRAME, ROWS_PER_FRAME, RowDrip } from '@pkg/node-health/data/row-drip';

/** Places `p<from>`… of a page showing the records `<prefix><n>` */
const page = (from: number, to: number, prefix = 'r') => Array.from({ length: to - from }, (_, i) => ({ key: `p${ from + i }`, record: `${ prefix }${ from + i }` }));

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
  it('mounts a page of new rows a few at a time, each step in a frame of its own', () => {
    const m = manual();

    expect(m.drip.start(page(0, 50))).toBe(FIRST_ROWS);
    expect(m.frames).toHaveLength(1);
    m.runFrames();
    expect(m.drawn).toEqual([FIRST_ROWS + ROWS_PER_FRAME, 50]);
    expect(m.frames).toHaveLength(0);
  });

  it('draws other records over the places on screen a few at a time (the verdicts over the checking rows)', () => {
    const m = manual();

    m.drip.start(page(0, 50));
    m.runFrames();
    m.drawn.length = 0;
    expect(m.drip.start(page(0, 50, 'verdict'))).toBe(REPLACED_PER_FRAME);
    m.runFrames();
    expect(m.drawn).toEqual([50]);
  });

  it('draws at once a page whose places show the records they showed (a refresh), or only a few others', () => {
    const m = manual();

    m.drip.start(page(0, 50));
    m.runFrames();
    expect(m.drip.start(page(0, 50))).toBe(50);
    // 40 places as they were and 10 drawn over: all at once.
    expect(m.drip.start([...page(0, 40), ...page(40, 50, 'other')])).toBe(50);
    // 10 more places than before: mounted with the page.
    expect(m.drip.start([...page(0, 40), ...page(40, 60, 'other')])).toBe(60);
    expect(m.frames).toHaveLength(0);
  });

  it('counts the places not drawn over yet as showing what they showed, when a page comes before its last is drawn', () => {
    const m = manual();

    m.drip.start(page(0, 50));
    m.runFrames();
    expect(m.drip.start(page(0, 50, 'sorted'))).toBe(REPLACED_PER_FRAME);
    // The same page again (a refresh) before the next frame: the places still to draw over are all that is left.
    expect(m.drip.start(page(0, 50, 'sorted'))).toBe(50);
    expect(m.frames).toHaveLength(0);
  });

  it('draws a small page at once, and a new page or stop cancels the frames of the last', () => {
    const m = manual();

    expect(m.drip.start(page(0, FIRST_ROWS))).toBe(FIRST_ROWS);
    expect(m.frames).toHaveLength(0);
    m.drip.start(page(100, 150));
    expect(m.frames).toHaveLength(1);
    m.drip.start(page(200, 250));
    expect(m.frames).toHaveLength(1);
    m.drip.stop();
    expect(m.frames).toHaveLength(0);
    expect(m.drawn).toEqual([]);
  });
});
