import { IDLE_TO_BUSY, POLL_INTERVAL_MS, pollInterval, startBusyMeter } from '@pkg/node-health/data';
import { FakeLongTaskObserver as FakeObserver, installLongTaskObserver } from '../../fakes/long-task-observer';

let restore: () => void = () => undefined;

afterEach(() => restore());

describe('startBusyMeter', () => {
  it('adds up the long tasks delivered and those still queued, and stops observing', () => {
    restore = installLongTaskObserver(FakeObserver);
    const meter = startBusyMeter();
    const observer = FakeObserver.last as FakeObserver;

    expect(observer.observed).toEqual({ type: 'longtask' });
    observer.deliver(120, 80.4);
    observer.pending = [{ duration: 300 }];

    expect(meter.stop()).toBe(500);
    expect(observer.disconnected).toBe(true);
    observer.deliver(1000);
    expect(meter.stop()).toBe(500);
  });

  it('says it cannot tell where the browser does not report long tasks', () => {
    restore = installLongTaskObserver(undefined);
    expect(startBusyMeter().stop()).toBeNull();

    restore();
    restore = installLongTaskObserver(FakeObserver);
    FakeObserver.supportedEntryTypes = ['resource'];
    expect(startBusyMeter().stop()).toBeNull();
    expect(FakeObserver.last).toBeNull();
  });
});

describe('pollInterval', () => {
  it('keeps the base interval for a light refresh and stretches it for a heavy one', () => {
    expect(pollInterval(0)).toBe(POLL_INTERVAL_MS);
    expect(pollInterval(POLL_INTERVAL_MS / IDLE_TO_BUSY - 1)).toBe(POLL_INTERVAL_MS);
    expect(pollInterval(1300)).toBe(1300 * IDLE_TO_BUSY);
    expect(pollInterval(Number.NaN)).toBe(POLL_INTERVAL_MS);
    expect(pollInterval(-5)).toBe(POLL_INTERVAL_MS);
  });
});
