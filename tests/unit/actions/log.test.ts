import {
  ACTION_LOG_LIMIT, clearActionLog, getActionLog, onActionLogChange, recordAction, scrubDetail
} from '@pkg/node-health/actions';
import type { ActionLogInput } from '@pkg/node-health/actions';

const TOKEN = 'x7b9kq2m4n8p6r5t3v1w0y9z8a7b6c5d4e3f2g1h0j9k8l7m6n5p4q';

function entry(overrides: Partial<ActionLogInput> = {}): ActionLogInput {
  return {
    at:      '2024-05-02T12:00:00Z',
    user:    'admin',
    cluster: 'c-m-abc',
    action:  'remove-finalizers',
    target:  'Machine fleet-default/custom-1',
    result:  'succeeded',
    ...overrides,
  };
}

describe('action log (in memory, where there is no sessionStorage)', () => {
  beforeEach(() => {
    clearActionLog('c-m-abc');
    clearActionLog('c-m-other');
  });

  it('keeps entries per cluster, oldest first, with an RFC3339 time', () => {
    recordAction(entry({ at: '2024-05-02T12:00:00+02:00' }));
    recordAction(entry({ cluster: 'c-m-other', result: 'conflict' }));
    recordAction(entry({
      action: 'etcd-force-remove', target: 'RKEBootstrap fleet-default/custom-1', result: 'already-gone'
    }));

    expect(getActionLog('c-m-abc')).toEqual([
      {
        at: '2024-05-02T10:00:00.000Z', user: 'admin', cluster: 'c-m-abc', action: 'remove-finalizers', target: 'Machine fleet-default/custom-1', result: 'succeeded'
      },
      {
        at: '2024-05-02T12:00:00.000Z', user: 'admin', cluster: 'c-m-abc', action: 'etcd-force-remove', target: 'RKEBootstrap fleet-default/custom-1', result: 'already-gone'
      },
    ]);
    expect(getActionLog('c-m-other').map((e) => e.result)).toEqual(['conflict']);
  });

  it('stamps the current time when none is given', () => {
    const before = Date.now();
    const kept = recordAction(entry({ at: undefined }));

    expect(Date.parse(kept.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(kept.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });

  it('is bounded: the oldest entries drop out', () => {
    for (let i = 0; i < ACTION_LOG_LIMIT + 25; i++) {
      recordAction(entry({ target: `Machine ns/m-${ i }` }));
    }
    const log = getActionLog('c-m-abc');

    expect(log).toHaveLength(ACTION_LOG_LIMIT);
    expect(log[0].target).toBe('Machine ns/m-25');
    expect(log[log.length - 1].target).toBe(`Machine ns/m-${ ACTION_LOG_LIMIT + 24 }`);
  });

  it('never keeps a token or a registration command', () => {
    recordAction(entry({ action: 'copy-registration-command', detail: `curl -fL https://r.example.com/system-agent-install.sh | sudo sh -s - --token ${ TOKEN }` }));
    recordAction(entry({ detail: `retry with --token ${ TOKEN } and password=hunter2 via http://user:pa55@proxy:3128` }));
    recordAction(entry({ detail: `bearer ${ TOKEN }` }));
    const serialised = JSON.stringify(getActionLog('c-m-abc'));

    expect(serialised).not.toContain(TOKEN);
    expect(serialised).not.toContain('system-agent-install');
    expect(serialised).not.toContain('hunter2');
    expect(serialised).not.toContain('pa55');
  });

  it('keeps only its own fields', () => {
    recordAction({
      ...entry(), command: 'curl …', token: TOKEN
    } as unknown as ActionLogInput);

    expect(Object.keys(getActionLog('c-m-abc')[0]).sort()).toEqual(['action', 'at', 'cluster', 'result', 'target', 'user']);
  });

  it('refuses unknown actions and results', () => {
    expect(() => recordAction(entry({ action: 'delete-everything' as never }))).toThrow(/unknown action/);
    expect(() => recordAction(entry({ result: 'maybe' as never }))).toThrow(/unknown result/);
  });

  it('hands out copies, and clears per cluster', () => {
    recordAction(entry());
    recordAction(entry({ cluster: 'c-m-other' }));
    getActionLog('c-m-abc')[0].result = 'failed';

    expect(getActionLog('c-m-abc')[0].result).toBe('succeeded');
    clearActionLog('c-m-abc');
    expect(getActionLog('c-m-abc')).toEqual([]);
    expect(getActionLog('c-m-other')).toHaveLength(1);
  });

  it('tells listeners which cluster changed', () => {
    const heard: string[] = [];
    const stop = onActionLogChange((id) => heard.push(id));

    recordAction(entry());
    stop();
    recordAction(entry());
    expect(heard).toEqual(['c-m-abc']);
  });
});

describe('scrubDetail', () => {
  it('leaves ordinary details readable', () => {
    expect(scrubDetail('os=linux roles=etcd,controlplane node=ip-10-0-0-1.eu-west-1.compute.internal.example.com'))
      .toBe('os=linux roles=etcd,controlplane node=ip-10-0-0-1.eu-west-1.compute.internal.example.com');
    expect(scrubDetail('conflict (HTTP 422)')).toBe('conflict (HTTP 422)');
  });

  it('bounds the length and keeps one line', () => {
    const out = scrubDetail(`a\nb ${ 'word '.repeat(200) }`);

    expect(out).not.toContain('\n');
    expect(out.length).toBeLessThanOrEqual(301);
  });
});

describe('action log in sessionStorage', () => {
  class FakeStorage {
    items = new Map<string, string>();
    failWrites = false;
    getItem(key: string) {
      return this.items.has(key) ? this.items.get(key) as string : null;
    }

    setItem(key: string, value: string) {
      if (this.failWrites) {
        throw new Error('QuotaExceededError');
      }
      this.items.set(key, value);
    }

    removeItem(key: string) {
      this.items.delete(key);
    }
  }

  const g = globalThis as { sessionStorage?: unknown };
  let storage: FakeStorage;

  beforeEach(() => {
    storage = new FakeStorage();
    g.sessionStorage = storage;
  });

  afterEach(() => {
    delete g.sessionStorage;
  });

  it('survives a reload: a fresh copy of the module reads what the last one wrote', () => {
    recordAction(entry({ cluster: 'c-m-reload' }));
    expect([...storage.items.keys()]).toEqual(['nodeHealth.actionLog.v1:c-m-reload']);

    jest.isolateModules(() => {
      const reloaded = require('@pkg/node-health/actions/action-log');

      expect(reloaded.getActionLog('c-m-reload')).toEqual([expect.objectContaining({ cluster: 'c-m-reload', result: 'succeeded' })]);
    });
  });

  it('ignores a damaged stored log instead of failing', () => {
    storage.items.set('nodeHealth.actionLog.v1:c-m-bad', '{not json');
    expect(getActionLog('c-m-bad')).toEqual([]);
    recordAction(entry({ cluster: 'c-m-bad' }));
    expect(getActionLog('c-m-bad')).toHaveLength(1);
  });

  it('falls back to memory when the storage refuses to write', () => {
    storage.failWrites = true;
    recordAction(entry({ cluster: 'c-m-full' }));
    delete g.sessionStorage;
    expect(getActionLog('c-m-full')).toHaveLength(1);
    clearActionLog('c-m-full');
  });
});
