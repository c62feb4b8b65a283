/**
 * The embedded API's kubelets: a Node a scenario shows live stays live however long the server runs, and the
 * Node Health tab never calls it stale; a Node the scenario shows stale or gone keeps what it was given.
 */
import { diagnose } from '@pkg/node-health/engine';
import { Kubelets, REPORT_MS } from '../../../mock-rancher/kubelets';
import { ObjectStore } from '../../../mock-rancher/store';
import { buildWorld } from '../../../mock-rancher/world';
import { SIGNAL_MACHINES } from '../../../scenarios/catalog';

const NOW = new Date('2026-06-02T09:40:00Z');
const MINUTE = 60000;

function served(scenarios: string[]) {
  const store = new ObjectStore();
  const world = buildWorld(store, { scenarios, now: NOW });
  const mgmtId = world.clusters.find((c) => c.source === scenarios[0])!.mgmtId;
  const nodeInfo = store.scope(mgmtId)!.types.fromSteveName('node')!;
  const readyBeat = (name: string) => (store.peek(mgmtId, nodeInfo.id, undefined, name)!.status as any).conditions.find((c: any) => c.type === 'Ready').lastHeartbeatTime;
  const everything = () => store.scopeIds().flatMap((scope) => store.scope(scope)!.types.all().flatMap((t) => store.list(scope, t.id)));

  return {
    store, mgmtId, nodeInfo, readyBeat, everything
  };
}

describe('the embedded API\'s kubelets', () => {
  it('write each live Node\'s status once it is 5 minutes old, and leave a Node nothing writes any more alone', () => {
    const s = served(['node-signals']);
    const k = new Kubelets(s.store, NOW.getTime());
    const frozen = s.readyBeat('sg-worker-06');

    // Seven Nodes, one of them with a status 38 minutes old at the scenario's now: six kubelets run.
    expect(k.count).toBe(6);
    expect(k.report(NOW.getTime() + 4 * MINUTE)).toBe(0);
    expect(k.report(NOW.getTime() + REPORT_MS)).toBe(6);
    expect(s.readyBeat('sg-worker-01')).toBe('2026-06-02T09:45:00Z');
    expect(s.readyBeat('sg-worker-06')).toBe(frozen);
    // Written, the status is new again: the next report is 5 minutes on.
    expect(k.report(NOW.getTime() + REPORT_MS + MINUTE)).toBe(0);
    expect(k.report(NOW.getTime() + 2 * REPORT_MS)).toBe(6);
    expect(s.readyBeat('sg-worker-01')).toBe('2026-06-02T09:50:00Z');
  });

  it('keep the tab from calling a live Node stale an hour on, while the scenario\'s stale Node stays so', () => {
    const s = served(['node-signals']);
    const k = new Kubelets(s.store, NOW.getTime());
    const hourLater = NOW.getTime() + 60 * MINUTE;

    for (let t = NOW.getTime(); t <= hourLater; t += 30000) {
      k.report(t);
    }
    const stale = (at: number) => diagnose(s.everything(), { now: new Date(at).toISOString() }).records
      .filter((r) => r.findings.some((f) => f.rule === 'node-status-stale'))
      .map((r) => r.machineName);

    expect(stale(hourLater)).toEqual([SIGNAL_MACHINES.staleStatus]);
    // Its kubelet runs and renews its Lease, an hour on as at the start; only its status writes fail.
    const staleFinding = diagnose(s.everything(), { now: new Date(hourLater).toISOString() }).records
      .find((r) => r.machineName === SIGNAL_MACHINES.staleStatus)?.findings.find((f) => f.rule === 'node-status-stale');

    expect(staleFinding?.args).toMatchObject({ lease: 'renewed', leaseAge: 0 });
    // Without them, every Node of the cluster would read stale by then.
    expect(stale(hourLater).length).toBeLessThan(diagnose(served(['node-signals']).everything(), { now: new Date(hourLater).toISOString() }).records
      .filter((r) => r.findings.some((f) => f.rule === 'node-status-stale')).length);
  });
});
