import { createPoller } from '@pkg/node-health/data';

/** A manual clock and timer queue, so that scheduling is checked step by step, not by waiting. */
function fakeTime() {
  let now = 1_000_000;
  let seq = 0;
  const timers = new Map<number, { at: number; fn:() => void }>();

  return {
    now:        () => now,
    setTimer:   (fn: () => void, ms: number) => {
      timers.set(++seq, { at: now + ms, fn });

      return seq;
    },
    clearTimer: (h: unknown) => timers.delete(h as number),
    pending:    () => [...timers.values()].map((t) => t.at - now),
    /** moves the clock to the next timer and runs it */
    async next() {
      const [id, t] = [...timers.entries()].sort((a, b) => a[1].at - b[1].at)[0];

      timers.delete(id);
      now = t.at;
      t.fn();
      await Promise.resolve();
      await Promise.resolve();
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('createPoller', () => {
  function setup(intervalMs = 15000) {
    const time = fakeTime();
    let loaded: number | null = null;
    const calls: number[] = [];
    let release: (() => void) | null = null;
    const poller = createPoller({
      intervalMs,
      now:        time.now,
      setTimer:   time.setTimer,
      clearTimer: time.clearTimer,
      lastLoaded: () => loaded,
      refresh:    () => new Promise<void>((resolve) => {
        calls.push(time.now());
        release = () => {
          loaded = time.now();
          resolve();
        };
      }),
    });

    return {
      time,
      poller,
      calls,
      finish: async() => {
        release?.();
        release = null;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
  }

  it('loads nothing until the tab is visible, then at once', async() => {
    const { time, poller, calls } = setup();

    expect(time.pending()).toEqual([]);
    poller.setVisible(true);
    expect(time.pending()).toEqual([0]);
    await time.next();
    expect(calls).toHaveLength(1);
    expect(poller.running).toBe(true);
  });

  it('polls an interval after each load finished, never two at a time', async() => {
    const {
      time, poller, calls, finish
    } = setup();

    poller.setVisible(true);
    await time.next();
    // A refresh asked for while one runs joins it.
    const joined = poller.refreshNow();

    expect(calls).toHaveLength(1);
    time.advance(4000);
    await finish();
    await joined;
    expect(time.pending()).toEqual([15000]);
    await time.next();
    expect(calls).toHaveLength(2);
  });

  it('stops while hidden and catches up on return only when the data is older than the interval', async() => {
    const {
      time, poller, calls, finish
    } = setup();

    poller.setVisible(true);
    await time.next();
    await finish();
    poller.setVisible(false);
    expect(time.pending()).toEqual([]);
    time.advance(5000);
    poller.setVisible(true);
    expect(time.pending()).toEqual([10000]);
    poller.setVisible(false);
    time.advance(60000);
    poller.setVisible(true);
    expect(time.pending()).toEqual([0]);
    await time.next();
    expect(calls).toHaveLength(2);
  });

  it('reads the interval before each wait, so it can grow with the work a refresh costs', async() => {
    const time = fakeTime();
    let interval = 1000;
    const poller = createPoller({
      intervalMs: () => interval,
      now:        time.now,
      setTimer:   time.setTimer,
      clearTimer: time.clearTimer,
      lastLoaded: () => time.now(),
      refresh:    () => Promise.resolve(),
    });

    poller.setVisible(true);
    expect(time.pending()).toEqual([1000]);
    interval = 40000;
    await poller.refreshNow();
    expect(time.pending()).toEqual([40000]);
  });

  it('refreshes on demand and keeps polling after a failed refresh', async() => {
    const time = fakeTime();
    let attempts = 0;
    const poller = createPoller({
      intervalMs: 1000,
      now:        time.now,
      setTimer:   time.setTimer,
      clearTimer: time.clearTimer,
      lastLoaded: () => time.now(),
      refresh:    () => {
        attempts++;

        return Promise.reject(new Error('boom'));
      },
    });

    poller.setVisible(true);
    await poller.refreshNow();
    expect(attempts).toBe(1);
    expect(time.pending()).toEqual([1000]);
    poller.stop();
    expect(time.pending()).toEqual([]);
    await poller.refreshNow();
    expect(attempts).toBe(1);
  });

  it('waits the interval after a failed first load instead of asking a failing API again at once', async() => {
    const time = fakeTime();
    let attempts = 0;
    const poller = createPoller({
      intervalMs: 15000,
      now:        time.now,
      setTimer:   time.setTimer,
      clearTimer: time.clearTimer,
      lastLoaded: () => null,
      refresh:    () => {
        attempts++;

        return Promise.reject(new Error('500'));
      },
    });

    poller.setVisible(true);
    expect(time.pending()).toEqual([0]);
    await poller.refreshNow();
    expect(attempts).toBe(1);
    expect(time.pending()).toEqual([15000]);
    poller.stop();
  });

  it('loads once and never polls when told not to repeat (a bundle), though a refresh asked for still runs', async() => {
    const time = fakeTime();
    let attempts = 0;
    const poller = createPoller({
      intervalMs: 15000,
      repeat:     () => false,
      now:        time.now,
      setTimer:   time.setTimer,
      clearTimer: time.clearTimer,
      lastLoaded: () => (attempts ? time.now() : null),
      refresh:    () => {
        attempts++;

        return Promise.resolve();
      },
    });

    poller.setVisible(true);
    expect(time.pending()).toEqual([0]);
    await time.next();
    await new Promise((resolve) => setImmediate(resolve));
    expect(attempts).toBe(1);
    expect(time.pending()).toEqual([]);
    poller.setVisible(false);
    time.advance(60000);
    poller.setVisible(true);
    expect(time.pending()).toEqual([]);
    await poller.refreshNow();
    expect(attempts).toBe(2);
    expect(time.pending()).toEqual([]);
    poller.stop();
  });
});
