import { linkChain, PLAN_SECRET_STATUS_KEYS } from '@pkg/node-health/engine';
import { PLAN_SECRET_SENSITIVE_KEYS, clusterTarget, diagnoseLoad, loadClusterData } from '@pkg/node-health/data';
import type { ClusterTarget, StoreLists } from '@pkg/node-health/data';
import {
  ghostEtcd, healthy, imported, large, nodeSignals, nodesFrozen, windowsNodeRef, GHOST_MACHINE, SIGNAL_MACHINES
} from '../../../scenarios/catalog';
import { revealSecretValue } from '../../../scenarios/builders';
import type { Scenario } from '../../../scenarios/types';
import { clusterResource, fakeSteve, mgmtClustersById } from '../../components/tab-steve';
import { trimMgmtCluster } from '@pkg/node-health/data/mgmt-cluster';
import type { KubeObject } from '@pkg/node-health/engine';
import type { FakeSteveOptions } from '../../components/tab-steve';

function targetOf(s: Scenario, name = s.clusters[0].name): ClusterTarget {
  const t = clusterTarget(clusterResource(s, name));

  if (!t) {
    throw new Error('no target');
  }

  return t;
}

/** What the dashboard store holds from login: every management cluster. */
function storeHolding(s: Scenario) {
  const held = mgmtClustersById(s)['management.cattle.io.cluster'];

  return { mgmtCluster: Object.values(held).map((o) => trimMgmtCluster(o)).filter((o): o is KubeObject => !!o) };
}

async function load(s: Scenario, options: FakeSteveOptions = {}, fromStore: StoreLists = storeHolding(s)) {
  const steve = fakeSteve(s, options);
  const target = targetOf(s);
  const result = await loadClusterData(steve.dispatch, target, { now: () => Date.parse(s.now), fromStore });

  return {
    steve, target, result
  };
}

function pathsOf(urls: string[]): string[] {
  return urls.map((u) => decodeURIComponent(new URL(u, 'https://rancher.example.com').pathname));
}

describe('loadClusterData', () => {
  it('reads a custom cluster in ten requests: nine collections and one per infrastructure kind', async() => {
    const { steve, result } = await load(ghostEtcd());

    expect(pathsOf(steve.urls).sort()).toEqual([
      '/k8s/clusters/c-m-4qj7x2vd/v1/nodes',
      '/v1/cluster.x-k8s.io.clusters/fleet-default',
      '/v1/cluster.x-k8s.io.machinedeployments/fleet-default',
      '/v1/cluster.x-k8s.io.machinehealthchecks/fleet-default',
      '/v1/cluster.x-k8s.io.machines/fleet-default',
      '/v1/cluster.x-k8s.io.machinesets/fleet-default',
      '/v1/management.cattle.io.nodes/c-m-4qj7x2vd',
      '/v1/rke.cattle.io.custommachines/fleet-default',
      '/v1/rke.cattle.io.rkebootstraps/fleet-default',
      '/v1/secrets/fleet-default',
    ]);
    expect(result.requests.map((r) => r.url)).toEqual(steve.urls);
    expect(result.availability).toEqual({
      machines:            'ok',
      planSecrets:         'ok',
      bootstraps:          'ok',
      infraMachines:       'ok',
      mgmtNodes:           'ok',
      nodes:               'ok',
      // No Node's status is overdue: no Lease is asked for.
      leases:              'absent',
      // A custom cluster has its CAPI Cluster but no pools: nothing of those was missing.
      capiClusters:        'ok',
      machineHealthChecks: 'ok',
      machineDeployments:  'ok',
      machineSets:         'ok',
    });
    expect(result.objects.filter((o) => o.kind === 'Cluster' && String(o.apiVersion).startsWith('cluster.x-k8s.io/')).map((o) => o.metadata.name)).toStrictEqual(['dev-k3s']);
    expect(result.issues).toEqual([]);
    expect(result.loadedAt).toBe(Date.parse(ghostEtcd().now));
  });

  it('reads the Leases of the Nodes whose status is overdue, after the Nodes, by name, and never from an earlier answer', async() => {
    const { steve, target, result } = await load(nodeSignals());
    const leases = '/k8s/clusters/c-m-s1gn4l5x/v1/coordination.k8s.io.leases/kube-node-lease';
    const leaseUrls = steve.urls.filter((u) => pathsOf([u])[0] === leases);

    // sg-worker-06's status was written 38 minutes ago: its Lease, and only its, tells whether its kubelet runs.
    expect(leaseUrls).toHaveLength(1);
    expect(steve.urls.indexOf(leaseUrls[0])).toBeGreaterThan(pathsOf(steve.urls).indexOf('/k8s/clusters/c-m-s1gn4l5x/v1/nodes'));
    const query = new URL(leaseUrls[0], 'https://x').searchParams;

    expect(query.get('fieldSelector')).toBe('metadata.name=sg-worker-06');
    expect(query.getAll('include')).toEqual(expect.arrayContaining(['spec.renewTime', 'spec.holderIdentity']));
    expect(result.availability.leases).toBe('ok');
    expect(result.objects.filter((o) => o.kind === 'Lease').map((o) => o.metadata.name)).toStrictEqual(['sg-worker-06']);
    const stale = diagnoseLoad(target, result).records.find((r) => r.machineName === SIGNAL_MACHINES.staleStatus);

    const args = stale?.findings.find((f) => f.rule === 'node-status-stale')?.args;

    expect(args?.lease).toBe('renewed');
    expect(Math.round(Number(args?.leaseAge) / 1000)).toBe(7);

    // A cache that would answer every list: the Leases are asked for again all the same.
    const cached = new Map(result.requests.map((r) => [r.url, result.objects]));
    const again = await loadClusterData(steve.dispatch, target, {
      now:       () => Date.parse(nodeSignals().now),
      fromStore: storeHolding(nodeSignals()),
      cache:     {
        get: (r) => cached.get(r.url), reading: () => undefined, set: () => undefined
      },
    });

    expect(again.requests.filter((r) => !r.reused).map((r) => pathsOf([r.url])[0])).toEqual([leases]);

    // A Steve that answers with every Lease whatever the name asked for: only the one named is kept.
    const sql = await load(nodeSignals(), { ignoreSelectors: true });

    expect(sql.result.objects.filter((o) => o.kind === 'Lease').map((o) => o.metadata.name)).toStrictEqual(['sg-worker-06']);
    // More than ten Nodes overdue: the namespace's list, once.
    const many = large(40);

    for (const n of many.downstream[many.clusters[0].mgmtId].filter((o) => o.kind === 'Node').slice(0, 11)) {
      (n as any).status.conditions = (n as any).status.conditions.map((c: any) => ({ ...c, lastHeartbeatTime: '2020-01-01T00:00:00Z' }));
    }
    const manyLoad = await load(many);

    expect(manyLoad.steve.urls.filter((u) => u.includes('coordination.k8s.io.leases')).map((u) => new URL(u, 'https://x').searchParams.get('fieldSelector'))).toStrictEqual([null]);
    expect(manyLoad.result.objects.filter((o) => o.kind === 'Lease').length).toBeGreaterThan(11);

    // Not one Node overdue: none asked for.
    const healthyLoad = await load(healthy());

    expect(pathsOf(healthyLoad.steve.urls).filter((u) => u.includes('leases'))).toEqual([]);
    // Its Nodes unreadable: nothing to tell overdue, and no Lease asked for.
    const unreadable = await load(nodesFrozen(), { fail: { nodes: { status: 403 } } });

    expect(pathsOf(unreadable.steve.urls).filter((u) => u.includes('leases'))).toEqual([]);
    expect(unreadable.result.availability.leases).toBe('absent');
  });

  it('says so where the Leases cannot be read, and the stale Nodes fall back to reading theirs by hand', async() => {
    const s = nodesFrozen();
    const { target, result } = await load(s, { fail: { leases: { status: 403, message: 'leases.coordination.k8s.io is forbidden' } } });

    expect(result.availability.leases).toBe('forbidden');
    expect(result.issues).toContainEqual(expect.objectContaining({ input: 'leases', kind: 'forbidden' }));
    for (const r of diagnoseLoad(target, result).records.filter((x) => x.objects.node)) {
      expect(r.findings.find((f) => f.rule === 'node-status-stale')?.args?.lease).toBe('unread');
    }
  });

  it('asks for the infrastructure machines of a node-driver cluster by their kind', async() => {
    const { steve } = await load(windowsNodeRef());

    expect(pathsOf(steve.urls)).toContain('/v1/rke-machine.cattle.io.vmwarevspheremachines/fleet-default');
    expect(steve.urls).toHaveLength(10);
  });

  it('makes the same requests for 5 and for 500 nodes', async() => {
    const small = await load(large(5));
    const big = await load(large(500));

    expect(big.steve.urls).toEqual(small.steve.urls);
    expect(big.result.objects.length).toBeGreaterThan(10 * small.result.objects.length);
  });

  it('reads only the Nodes of an imported cluster, and says why machine inputs are absent', async() => {
    const { steve, result } = await load(imported());

    expect(pathsOf(steve.urls)).toEqual(['/v1/management.cattle.io.nodes/c-m-i6m2p4rq', '/k8s/clusters/c-m-i6m2p4rq/v1/nodes']);
    expect(result.availability).toMatchObject({
      machines: 'absent', planSecrets: 'absent', bootstraps: 'absent', infraMachines: 'absent', nodes: 'ok'
    });
  });

  it('follows pagination.next until the last page', async() => {
    const s = large(60);
    const paged = await load(s, { pageSize: 7 });
    const whole = await load(s);
    const machines = (r: typeof whole.result) => r.objects.filter((o) => o.kind === 'Machine').length;

    expect(machines(paged.result)).toBe(60);
    expect(paged.result.objects.map((o) => o.metadata.name).sort()).toEqual(whole.result.objects.map((o) => o.metadata.name).sort());
    expect(paged.steve.urls.filter((u) => u.includes('cluster.x-k8s.io.machines/'))).toHaveLength(Math.ceil(60 / 7));
  });

  it('keeps only the cluster\'s own objects when Steve ignores the selectors (its SQL cache does)', async() => {
    const s = ghostEtcd();
    const other = healthy();
    const steve = fakeSteve({ ...s, objects: [...s.objects, ...other.objects] }, { ignoreSelectors: true });
    const result = await loadClusterData(steve.dispatch, targetOf(s), { now: () => Date.parse(s.now), fromStore: storeHolding(s) });
    const alone = await load(s);

    // Steve sent the other cluster's objects too...
    expect(JSON.stringify(steve.responses)).toContain(other.clusters[0].name);
    // ...and none of them got past the loader.
    expect(result.objects.map((o) => `${ o.kind }/${ o.metadata.name }`).sort()).toEqual(alone.result.objects.map((o) => `${ o.kind }/${ o.metadata.name }`).sort());
  });

  describe('plan secrets', () => {
    /** Every secret data value in `value`, decoded the way its writer encoded it, with its key. */
    function secretValues(value: unknown): { key: string; text: string }[] {
      const out: { key: string; text: string }[] = [];
      const walk = (v: unknown) => {
        if (Array.isArray(v)) {
          v.forEach(walk);
        } else if (v && typeof v === 'object') {
          const o = v as Record<string, any>;

          if (o._type === 'rke.cattle.io/machine-plan' && o.data && typeof o.data === 'object') {
            for (const [key, raw] of Object.entries(o.data)) {
              out.push({ key, text: typeof raw === 'string' ? revealSecretValue(raw) : String(raw) });
            }
          }
          Object.values(o).forEach(walk);
        }
      };

      walk(value);

      return out;
    }
    const sensitive = (values: { key: string; text: string }[], marker: string) => values.filter((v) => PLAN_SECRET_SENSITIVE_KEYS.includes(v.key as any) || v.text.includes(marker)).length;

    it('never receive plan, appliedPlan or the outputs', async() => {
      const s = ghostEtcd();
      const { steve, result } = await load(s);
      const received = secretValues(steve.responses);

      expect(received.length).toBeGreaterThan(10);
      expect(sensitive(received, s.secretMarker)).toBe(0);
      expect([...new Set(secretValues(result.objects).map((v) => v.key))].filter((k) => !(PLAN_SECRET_STATUS_KEYS as readonly string[]).includes(k))).toEqual([]);
    });

    it('are stripped in the browser when a proxy dropped include and exclude', async() => {
      const s = ghostEtcd();
      const { steve, result } = await load(s, { dropFieldParams: true });

      // This Steve did send the plans...
      expect(sensitive(secretValues(steve.responses), s.secretMarker)).toBeGreaterThan(10);
      // ...but no object the loader hands on carries one.
      expect(sensitive(secretValues(result.objects), s.secretMarker)).toBe(0);
      expect(JSON.stringify(result.objects).includes('"plan"')).toBe(false);
      expect(result.objects.filter((o) => o._type === 'rke.cattle.io/machine-plan').length).toBeGreaterThan(10);
    });
  });

  describe('availability', () => {
    it('is forbidden on a 403 and error on other failures, and the rest still loads', async() => {
      const { result } = await load(ghostEtcd(), {
        fail: {
          planSecrets: { status: 403, message: 'secrets is forbidden' }, mgmtNodes: { status: 503 }, nodes: { network: true }
        }
      });

      expect(result.availability).toMatchObject({
        machines: 'ok', planSecrets: 'forbidden', bootstraps: 'ok', infraMachines: 'ok', mgmtNodes: 'error', nodes: 'error'
      });
      expect(result.issues).toEqual(expect.arrayContaining([
        {
          input: 'planSecrets', kind: 'forbidden', status: 403, message: 'secrets is forbidden'
        },
        expect.objectContaining({
          input: 'mgmtNodes', kind: 'server', status: 503
        }),
        expect.objectContaining({
          input: 'nodes', kind: 'network', status: null
        }),
      ]));
      expect(result.objects.some((o) => o.kind === 'Machine')).toBe(true);
    });

    it('is forbidden ("hidden") when Steve answers with an empty list where objects must exist', async() => {
      const { result } = await load(ghostEtcd(), { hidden: ['planSecrets', 'bootstraps', 'infraMachines'] });

      expect(result.availability).toMatchObject({
        planSecrets: 'forbidden', bootstraps: 'forbidden', infraMachines: 'forbidden'
      });
      expect(result.issues.map((i) => `${ i.input }:${ i.kind }`).sort()).toEqual(['bootstraps:hidden', 'infraMachines:hidden', 'planSecrets:hidden']);
      expect(result.issues.find((i) => i.input === 'infraMachines')?.subject).toBe('rke.cattle.io.custommachine');
    });

    it('tells the engine, whose diagnosis then comes from the Machine conditions alone', async() => {
      const s = ghostEtcd();
      const { target, result } = await load(s, { fail: { planSecrets: { status: 403 } } });
      const report = diagnoseLoad(target, result);
      const ghost = report.records.find((r) => r.machineName === GHOST_MACHINE);

      expect(ghost?.status).toBe('error');
      expect(ghost?.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['agent-never-checked-in', 'blocking-cluster-operation']));
      expect(linkChain(ghost as NonNullable<typeof ghost>).find((l) => l.kind === 'planSecret')?.state).toBe('unreadable');
      // No record claims a missing plan secret it could not see.
      expect(report.records.flatMap((r) => r.findings.map((f) => f.rule))).not.toContain('plan-secret-missing');
    });
  });

  it('asks Steve for the management cluster, once and small, when the store does not hold it; without it, nothing breaks', async() => {
    const s = ghostEtcd();
    const { steve, result } = await load(s, {}, {});
    const asked = steve.urls.filter((u) => u.includes('management.cattle.io.clusters'));

    expect(asked).toHaveLength(1);
    // Small: only what the engine reads of it (engine/read-fields.ts), never its spec.
    expect(decodeURIComponent(asked[0])).toMatch(/^\/v1\/management\.cattle\.io\.clusters\/c-m-4qj7x2vd\?include=/);
    expect(decodeURIComponent(asked[0])).toContain('include=status.conditions&include=status.connected');
    expect(asked[0]).not.toMatch(/include=spec/);
    expect(steve.urls).toHaveLength(11);
    const [mgmt] = result.objects.filter((o) => o.kind === 'Cluster' && String(o.apiVersion).startsWith('management.cattle.io/'));

    expect(Object.keys(mgmt.status).sort()).toStrictEqual(['conditions', 'connected']);
    expect(mgmt.metadata.managedFields).toBeUndefined();
    const denied = await load(s, { fail: { mgmtCluster: { status: 403 } } }, {});

    expect(denied.result.objects.filter((o) => o.kind === 'Cluster' && String(o.apiVersion).startsWith('management.cattle.io/'))).toStrictEqual([]);
    expect(denied.result.issues).toStrictEqual([]);
    expect(diagnoseLoad(denied.target, denied.result).records.length).toBe(diagnoseLoad(denied.target, result).records.length);
  });

  it('never rejects, even when every request fails', async() => {
    const { result } = await load(ghostEtcd(), {
      fail: {
        machines:            { status: 500 },
        planSecrets:         { status: 500 },
        bootstraps:          { status: 500 },
        mgmtNodes:           { status: 500 },
        nodes:               { status: 500 },
        mgmtCluster:         { status: 500 },
        capiClusters:        { status: 500 },
        machineDeployments:  { status: 500 },
        machineSets:         { status: 500 },
        machineHealthChecks: { status: 500 },
      }
    }, {});

    expect(Object.values(result.availability).filter((a) => a === 'error')).toHaveLength(9);
    expect(result.objects).toEqual([]);
  });

  it('treats an answer that is not a collection as a failure', async() => {
    const s = ghostEtcd();
    const steve = fakeSteve(s);
    const dispatch = (type: string, payload: any) => (payload.url.includes('rkebootstraps') ? Promise.resolve({ message: 'hello' }) : steve.dispatch(type, payload));
    const result = await loadClusterData(dispatch, targetOf(s), { fromStore: storeHolding(s) });

    expect(result.availability.bootstraps).toBe('error');
    expect(result.issues).toEqual([expect.objectContaining({ input: 'bootstraps', kind: 'unknown' })]);
  });

  it('stops a pagination chain that loops', async() => {
    const s = healthy();
    const target = targetOf(s);
    const urls: string[] = [];
    const dispatch = (_type: string, payload: any) => {
      urls.push(payload.url);

      return Promise.resolve({ data: [], pagination: { next: payload.url } });
    };

    await loadClusterData(dispatch, target, { fromStore: storeHolding(s) });
    // Nine collections and the infrastructure kind the cluster's machine pool names, each asked for once.
    expect(urls.length).toBe(10);
    expect(new Set(urls).size).toBe(10);
  });

  describe('infrastructure machines', () => {
    it('are asked for alongside the machines, of the kinds the cluster names, not after the machines came in', async() => {
      for (const s of [ghostEtcd(), windowsNodeRef()]) {
        const steve = fakeSteve(s);
        const asked: string[] = [];
        let releaseMachines = () => undefined as void;
        const machinesHeld = new Promise<void>((resolve) => {
          releaseMachines = resolve;
        });
        const dispatch = async(type: string, payload: any) => {
          asked.push(payload.url);
          if (payload.url.includes('cluster.x-k8s.io.machines')) {
            await machinesHeld;
          }

          return steve.dispatch(type, payload);
        };
        const loading = loadClusterData(dispatch, targetOf(s), { now: () => Date.parse(s.now), fromStore: storeHolding(s) });

        await new Promise((resolve) => setImmediate(resolve));
        expect(asked).toHaveLength(10);
        releaseMachines();
        const result = await loading;
        const alone = await load(s);

        expect(asked).toHaveLength(10);
        expect(result.availability.infraMachines).toBe('ok');
        expect(result.objects).toEqual(alone.result.objects);
      }
    });

    it('of a kind the cluster names but no machine uses are left out, answer and failure alike', async() => {
      const s = windowsNodeRef();
      const target = targetOf(s);
      const pools = target.cluster.spec.rkeConfig.machinePools;

      target.cluster.spec.rkeConfig.machinePools = [...pools, {
        ...pools[0], name: 'spare', machineConfigRef: { kind: 'Amazonec2Config', name: 'nc-spare' }
      }];
      const steve = fakeSteve(s, { fail: { infraMachines: { status: 500, message: 'boom' } } });
      const dispatch = (type: string, payload: any) => (payload.url.includes('amazonec2machines') ? steve.dispatch(type, payload) : fakeSteve(s).dispatch(type, payload));
      const result = await loadClusterData(dispatch, target, { now: () => Date.parse(s.now), fromStore: storeHolding(s) });
      const alone = await load(s);

      expect(pathsOf(result.requests.map((r) => r.url))).toContain('/v1/rke-machine.cattle.io.amazonec2machines/fleet-default');
      expect(result.availability).toEqual(alone.result.availability);
      expect(result.issues).toEqual(alone.result.issues);
      expect(result.objects).toEqual(alone.result.objects);
    });

    it('of a kind no pool names are still asked for once the machines show them', async() => {
      const s = windowsNodeRef();
      const target = targetOf(s);

      target.cluster.spec.rkeConfig.machinePools = [];
      target.custom = false;
      const steve = fakeSteve(s);
      const result = await loadClusterData(steve.dispatch, target, { now: () => Date.parse(s.now), fromStore: storeHolding(s) });
      const alone = await load(s);

      expect(pathsOf(steve.urls)).toContain('/v1/rke-machine.cattle.io.vmwarevspheremachines/fleet-default');
      expect(result.objects).toEqual(alone.result.objects);
    });
  });
});

describe('loadClusterData: lists a user may see only in part', () => {
  async function reviewed(s: Scenario, options: FakeSteveOptions, reviews: (access: { resource: string }) => Promise<boolean>) {
    const steve = fakeSteve(s, options);

    return loadClusterData(steve.dispatch, targetOf(s), { now: () => Date.parse(s.now), reviews });
  }

  it('a list the user may not read in full is partial, with its own notice, the others read', async() => {
    const result = await reviewed(ghostEtcd(), {}, async(a) => a.resource !== 'secrets');

    expect(result.availability).toMatchObject({
      machines: 'ok', planSecrets: 'partial', bootstraps: 'ok', infraMachines: 'ok', mgmtNodes: 'ok', nodes: 'ok'
    });
    expect(result.issues).toEqual([{
      input: 'planSecrets', kind: 'partial', status: null, message: null
    }]);
  });

  it('an access review that cannot be had leaves the list\'s completeness unknown: partial', async() => {
    const result = await reviewed(ghostEtcd(), {}, (a) => (a.resource === 'nodes' ? Promise.resolve(false) : Promise.resolve(true)));

    expect(result.availability.nodes).toBe('partial');
  });

  it('a 404 for a list the user may not read is the type hidden from them, not a missing resource', async() => {
    const denied = await reviewed(ghostEtcd(), { fail: { planSecrets: { status: 404, message: 'schema secrets not found' } } }, async(a) => a.resource !== 'secrets');
    const allowed = await reviewed(ghostEtcd(), { fail: { planSecrets: { status: 404 } } }, async() => true);

    expect(denied.issues).toEqual([expect.objectContaining({
      input: 'planSecrets', kind: 'hidden', status: 404
    })]);
    expect(denied.availability.planSecrets).toBe('forbidden');
    expect(allowed.issues).toEqual([expect.objectContaining({ input: 'planSecrets', kind: 'not-found' })]);
    expect(allowed.availability.planSecrets).toBe('error');
  });

  it('asks the SQL cache by filter: the answers are the same as by selectors', async() => {
    const s = ghostEtcd();
    const bySelectors = await loadClusterData(fakeSteve(s).dispatch, targetOf(s), { now: () => Date.parse(s.now) });
    const steve = fakeSteve(s, { sqlCache: true });
    const byFilter = await loadClusterData(steve.dispatch, targetOf(s), { now: () => Date.parse(s.now), form: 'filter' });

    expect(steve.urls.some((u) => u.includes('labelSelector'))).toBe(false);
    expect(byFilter.objects.map((o) => o.id).sort()).toEqual(bySelectors.objects.map((o) => o.id).sort());
  });
});
