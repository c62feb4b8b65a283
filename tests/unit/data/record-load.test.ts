import { JOINED_NOTE, POOL_NOTE, RELATED_NOTE, WHOLE_CLUSTER_NOTE } from '@pkg/node-health/engine';
import type { KubeObject, NodeRecord } from '@pkg/node-health/engine';
import { buildRows, clusterTarget, diagnoseLoad, loadClusterData } from '@pkg/node-health/data';
import type { ClusterTarget, NodeRow } from '@pkg/node-health/data';
import { loadRecordData } from '@pkg/node-health/data/record-load';
import { CLUSTER_RULES } from '@pkg/node-health/engine/rules/cluster';
import { subjectRow } from '@pkg/node-health/data/record-target';
import type { RecordSubject } from '@pkg/node-health/data/record-target';
import { trimMgmtCluster } from '@pkg/node-health/data/mgmt-cluster';
import {
  CREATE_FAILED_MACHINE, SCENARIOS, SCENARIO_NAMES, buildScenario, large
} from '../../../scenarios/catalog';
import type { Scenario } from '../../../scenarios/types';
import { clusterResource, fakeSteve, mgmtClustersById } from '../../components/tab-steve';
import type { FakeSteveOptions } from '../../components/tab-steve';

const EVERY_RECORD_RULES = new Set(CLUSTER_RULES.filter((rule) => rule.needsEveryRecord).map((rule) => rule.id));

function targetOf(s: Scenario, name: string): ClusterTarget | null {
  return clusterTarget(clusterResource(s, name));
}

function mgmtClusterOf(s: Scenario, target: ClusterTarget): KubeObject[] {
  const held = mgmtClustersById(s)['management.cattle.io.cluster'];
  const found = target.mgmtId ? trimMgmtCluster(held[target.mgmtId]) : null;

  return found ? [found] : [];
}

/**
 * What the record tab shows of a record, and what a finding's action checks; `related` false leaves out what other
 * records' findings say of it (related-record), which a scoped record's note leaves to the cluster's tab.
 */
function shown(r: NodeRecord, related = true) {
  const ofOthers = (rule: string) => !related && rule === 'related-record';

  return {
    // What the cluster's findings say (the preflight reads them: paused, agent disconnected)
    // (less those judged from every record of the cluster, which one record's load leaves to the cluster's tab)
    cluster:   (r.cluster?.findings ?? []).map((f) => f.rule).filter((rule) => !EVERY_RECORD_RULES.has(rule)),
    status:    r.status,
    findings:  r.findings.filter((f) => !ofOthers(f.rule)).map((f) => f.rule),
    steps:     (r.resolution?.steps ?? []).filter((s) => !ofOthers(s.rule)).map((s) => ({
      key: s.key, args: s.args ?? {}, command: s.command ?? null
    })),
    preflight: (r.preflight ?? []).map((p) => ({
      id: p.id, allowed: p.allowed, checks: p.checks.map((c) => `${ c.id }:${ c.ok }:${ c.key }`)
    })),
  };
}

/** The subjects of a cluster's records: each Machine, and each Node (a Node's page shows the record that holds it). */
function subjectsOf(records: NodeRecord[]): RecordSubject[] {
  const out: RecordSubject[] = [];

  for (const r of records) {
    const m = r.objects.machine;

    if (m) {
      out.push({
        kind: 'machine', name: m.metadata.name, namespace: m.metadata.namespace
      });
    }
    if (r.objects.node) {
      out.push({
        kind: 'node', name: r.objects.node.metadata.name, namespace: null
      });
    }
  }

  return out;
}

function recordOf(records: NodeRecord[], rows: NodeRow[], subject: RecordSubject): NodeRecord | null {
  const row = subjectRow(rows, subject);

  return row ? records.find((r) => r.key === row.key) ?? null : null;
}

async function wholeCluster(s: Scenario, target: ClusterTarget, options: FakeSteveOptions) {
  const steve = fakeSteve(s, options);
  const load = await loadClusterData(steve.dispatch, target, {
    now: () => Date.parse(s.now), fromStore: { mgmtCluster: mgmtClusterOf(s, target) }, form: options.sqlCache ? 'filter' : 'selectors'
  });
  const report = diagnoseLoad(target, load);

  return { records: report.records, rows: buildRows(report) };
}

async function scoped(s: Scenario, target: ClusterTarget, subject: RecordSubject, options: FakeSteveOptions = {}) {
  const steve = fakeSteve(s, options);
  const load = await loadRecordData(steve.dispatch, target, subject, {
    now: () => Date.parse(s.now), mgmtCluster: mgmtClusterOf(s, target), form: options.sqlCache ? 'filter' : 'selectors'
  });
  const report = diagnoseLoad(target, load);

  return {
    steve, load, record: recordOf(report.records, buildRows(report), subject)
  };
}

const declared = (r: NodeRecord | null) => !!r?.notes.some((n) => n.key === WHOLE_CLUSTER_NOTE || n.key === JOINED_NOTE);

describe('loadRecordData: one record, as the whole cluster judges it', () => {
  const differing: string[] = [];

  afterAll(() => {
    // The records whose scoped judgement says it needs the whole cluster (listed for the record).
    console.log(`records that carry the whole-cluster note and differ:\n${ differing.join('\n') }`); // eslint-disable-line no-console
  });

  for (const name of SCENARIO_NAMES) {
    for (const mode of ['selectors', 'filter'] as const) {
      it(`${ name } (${ mode }): every Machine's and Node's record equals the whole cluster's, or says it needs the whole cluster`, async() => {
        const s = SCENARIOS[name]();
        const options: FakeSteveOptions = mode === 'filter' ? { sqlCache: true } : {};
        let compared = 0;

        for (const cluster of s.clusters) {
          const target = targetOf(s, cluster.name);

          if (!target?.mgmtId) {
            continue;
          }
          const whole = await wholeCluster(s, target, options);

          for (const subject of subjectsOf(whole.records)) {
            const expected = recordOf(whole.records, whole.rows, subject);
            const { record } = await scoped(s, target, subject, options);
            const label = `${ name } ${ subject.kind } ${ subject.name }`;

            expect({ label, found: !!record }).toEqual({ label, found: !!expected });
            if (!expected || !record) {
              continue;
            }
            compared++;
            expect(record.key).toBe(expected.key);
            if (declared(record)) {
              if (JSON.stringify(shown(record)) !== JSON.stringify(shown(expected)) && mode === 'selectors') {
                differing.push(`${ label }: ${ expected.status } [${ shown(expected).findings.join(', ') }] -> ${ record.status } [${ shown(record).findings.join(', ') }]`);
              }
              continue;
            }
            const related = !record.notes.some((n) => n.key === RELATED_NOTE);

            if (JSON.stringify(shown(record)) !== JSON.stringify(shown(expected)) && mode === 'selectors') {
              differing.push(`${ label } (related-record left to the cluster's tab): [${ shown(expected).findings.join(', ') }] -> [${ shown(record).findings.join(', ') }]`);
            }
            expect({ label, ...shown(record, related) }).toEqual({ label, ...shown(expected, related) });
          }
        }
        expect(compared).toBeGreaterThan(0);
      });
    }
  }
});

describe('loadRecordData: a few dozen objects on a large cluster', () => {
  const s = large(2000);
  const target = targetOf(s, s.clusters[0].name) as ClusterTarget;
  const worker = s.objects.find((o) => o.kind === 'Machine' && o.metadata.labels?.['rke.cattle.io/worker-role'] === 'true' && (o as KubeObject).status?.nodeRef) as KubeObject;
  const subject: RecordSubject = {
    kind: 'machine', name: worker.metadata.name, namespace: worker.metadata.namespace
  };

  for (const mode of ['selectors', 'filter'] as const) {
    it(`asks for one worker's objects by selector, never a whole list (${ mode })`, async() => {
      const { steve, load, record } = await scoped(s, target, subject, mode === 'filter' ? { sqlCache: true } : {});
      const lists = steve.urls.map((u) => new URL(u, 'https://rancher.example.com')).filter((u) => !u.pathname.includes('management.cattle.io.clusters'));
      const narrowed = (u: URL) => (mode === 'filter' ? u.searchParams.getAll('filter').some((f) => f.startsWith('metadata.')) : !!(u.searchParams.get('labelSelector') || u.searchParams.get('fieldSelector')));
      const small = ['cluster.x-k8s.io.clusters', 'cluster.x-k8s.io.machinedeployments', 'cluster.x-k8s.io.machinesets', 'cluster.x-k8s.io.machinehealthchecks'];

      // Every list but Cluster API's four small ones (asked for by the cluster's name, as the cluster's tab does) is narrowed to this record.
      expect(lists.filter((u) => !small.some((t) => u.pathname.includes(`/${ t }/`))).filter((u) => !narrowed(u)).map((u) => u.toString())).toEqual([]);
      expect(steve.urls.length).toBeLessThanOrEqual(20);
      // 39 objects of 2,000 nodes' ~12,000: the worker's chain (Machine, plan secret, RKEBootstrap, CustomMachine, its Node
      // by name and by uid label, Rancher's copy) and the CAPI Cluster, 8; the 5 etcd and control-plane machines, each
      // asked for by both roles, with their plan secrets and Nodes, 30; the first worker machine, 1.
      const read = steve.responses.reduce((n, r) => n + (Array.isArray((r.body as { data?: unknown[] }).data) ? (r.body as { data: unknown[] }).data.length : 0), 0);

      expect(read).toBeLessThanOrEqual(40);
      expect(read).toBeGreaterThan(30);
      expect(load.objects.filter((o) => o.kind === 'Machine').map((o) => o.metadata.name).sort()).toEqual(
        [worker.metadata.name, ...s.objects.filter((o) => o.kind === 'Machine' && o.metadata.labels?.['rke.cattle.io/etcd-role'] === 'true').map((o) => o.metadata.name)].sort()
      );
      expect(load.availability.machines).toBe('ok');
      expect(record?.key).toBe(`machine:${ subject.namespace }/${ subject.name }`);
      // A custom worker's pool is every worker of the cluster: not compared here, and the record says so.
      expect(record?.pool).toBeUndefined();
      expect(record?.notes.map((n) => n.key)).toContain(POOL_NOTE);
    });
  }

  it('judges the worker, a broken worker and a control-plane machine as the whole cluster does', async() => {
    const whole = await wholeCluster(s, target, {});
    const broken = whole.records.find((r) => r.objects.machine && r.objects.node && r.status !== 'healthy') as NodeRecord;
    const server = whole.records.find((r) => r.roles.includes('etcd')) as NodeRecord;

    for (const m of [worker, broken.objects.machine, server.objects.machine] as KubeObject[]) {
      const sub: RecordSubject = {
        kind: 'machine', name: m.metadata.name, namespace: m.metadata.namespace
      };
      const { record } = await scoped(s, target, sub);
      const expected = recordOf(whole.records, whole.rows, sub) as NodeRecord;

      expect({ name: m.metadata.name, ...shown(record as NodeRecord) }).toEqual({ name: m.metadata.name, ...shown(expected) });
    }
    expect(broken.findings.length).toBeGreaterThan(0);
  });
});

describe('loadRecordData: a machine compared with its pool', () => {
  it('reads a node-driver pool by its label, with the pool\'s Nodes by machine uid, and compares as the whole cluster does', async() => {
    const s = buildScenario('infra-delete-failed');
    const target = targetOf(s, s.clusters[0].name) as ClusterTarget;
    const whole = await wholeCluster(s, target, {});
    const subject: RecordSubject = {
      kind: 'machine', name: CREATE_FAILED_MACHINE, namespace: target.namespace
    };
    const { steve, record } = await scoped(s, target, subject);
    const expected = recordOf(whole.records, whole.rows, subject);

    expect(expected?.pool?.outlier).toBe(true);
    expect(record?.pool).toEqual(expected?.pool);
    expect(record?.notes.map((n) => n.key)).not.toContain(POOL_NOTE);
    expect(steve.urls.some((u) => new URL(u, 'https://rancher.example.com').searchParams.get('labelSelector')?.startsWith('rke.cattle.io/machine in ('))).toBe(true);
  });
});

describe('loadRecordData: the kubelet\'s Lease', () => {
  it('reads the Lease of a Node whose status is overdue, by its name and anew each time, and none of a live one', async() => {
    const s = buildScenario('node-signals');
    const target = targetOf(s, s.clusters[0].name) as ClusterTarget;
    const stale = s.downstream[target.mgmtId as string].find((o) => o.kind === 'Node' && o.metadata.name === 'sg-worker-06')!;
    const leaseUrls = (urls: string[]) => urls.filter((u) => u.includes('coordination.k8s.io.leases'));
    const { steve, load, record } = await scoped(s, target, {
      kind: 'node', name: stale.metadata.name, namespace: null
    });

    expect(leaseUrls(steve.urls)).toHaveLength(1);
    expect(decodeURIComponent(leaseUrls(steve.urls)[0])).toContain('/k8s/clusters/c-m-s1gn4l5x/v1/coordination.k8s.io.leases/kube-node-lease?fieldSelector=metadata.name=sg-worker-06');
    expect(load.availability.leases).toBe('ok');
    expect(record?.findings.find((f) => f.rule === 'node-status-stale')?.args?.lease).toBe('renewed');
    // Never from an earlier answer: the Lease is not watched. A cache that would answer every list leaves it asked.
    const again = await loadRecordData(steve.dispatch, target, {
      kind: 'node', name: stale.metadata.name, namespace: null
    }, {
      now:         () => Date.parse(s.now),
      mgmtCluster: mgmtClusterOf(s, target),
      cache:       {
        get: () => load.objects, reading: () => undefined, set: () => undefined
      },
    });

    expect(leaseUrls(again.requests.filter((r) => !r.reused).map((r) => r.url))).toHaveLength(1);
    expect(again.requests.filter((r) => !r.reused && !r.url.includes('leases')).map((r) => r.input)).toEqual([]);

    const live = await scoped(s, target, {
      kind: 'node', name: 'sg-worker-01', namespace: null
    });

    expect(leaseUrls(live.steve.urls)).toEqual([]);
    expect(live.load.availability.leases).toBe('absent');
  });
});
