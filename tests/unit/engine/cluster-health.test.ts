/**
 * What only the whole cluster shows: etcd quorum, a control plane with no healthy member, a role no machine has,
 * reconciliation paused. Each starts from its scenario and changes one thing the way Kubernetes or Rancher would.
 */
import { diagnose } from '@pkg/node-health/engine';
import type { DiagnoseOptions, Finding } from '@pkg/node-health/engine';
import { CLUSTER_RULES } from '@pkg/node-health/engine/rules/cluster';
import type { ClusterRule } from '@pkg/node-health/engine/rules/cluster';
import { buildScenario, CLUSTER_HEALTH_MACHINES } from '../../../scenarios/catalog';
import { clusterObjects } from './helpers';

function objectsOf(name: string): { now: string; objects: any[] } {
  const s = buildScenario(name);

  return { now: s.now, objects: JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) };
}

function clusterFindings(now: string, objects: any[], options: Partial<DiagnoseOptions> = {}): Finding[] {
  return diagnose(objects, { now, ...options }).clusters.flatMap((c) => c.findings);
}

const nodeNamed = (objects: any[], name: string) => objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === name);

function setReady(node: any, status: 'True' | 'Unknown'): void {
  node.status.conditions = node.status.conditions.map((c: any) => (c.type === 'Ready' ? {
    ...c, status, reason: status === 'True' ? 'KubeletReady' : 'NodeStatusUnknown', message: status === 'True' ? 'kubelet is posting ready status' : 'Kubelet stopped posting node status.'
  } : c));
  node.spec.taints = status === 'True' ? (node.spec.taints ?? []).filter((t: any) => !t.key.startsWith('node.kubernetes.io/unreachable')) : node.spec.taints;
}

describe('etcd-quorum', () => {
  it('two of three members healthy: at risk, a warning naming the member that is down, which points back to it', () => {
    const { now, objects } = objectsOf('etcd-quorum');
    const report = diagnose(objects, { now });
    const f = report.clusters[0].findings.find((x) => x.rule === 'etcd-quorum')!;

    expect(f.severity).toBe('warning');
    expect(f.args).toMatchObject({
      lost: 'no', healthy: 2, members: 3, quorum: 2, down: `${ CLUSTER_HEALTH_MACHINES.etcdDown } (q-cp-03)`
    });
    expect(f.evidence.map((e) => e.value)).toContain('Kubelet stopped posting node status.');
    const down = report.records.find((r) => r.machineName === CLUSTER_HEALTH_MACHINES.etcdDown)!;

    expect(down.notes).toContainEqual(expect.objectContaining({ key: 'nodeHealth.notes.partOf.etcdQuorum' }));
    // The note points to the cluster; the record's own finding still says what is wrong with it.
    expect(down.status).toBe('error');
  });

  it('one of three healthy: quorum lost, an error, and the steps no longer suggest adding a member', () => {
    const { now, objects } = objectsOf('etcd-quorum');

    setReady(nodeNamed(objects, 'q-cp-02'), 'Unknown');
    const f = clusterFindings(now, objects).find((x) => x.rule === 'etcd-quorum')!;

    expect(f.severity).toBe('error');
    expect(f.args).toMatchObject({
      lost: 'yes', healthy: 1, quorum: 2
    });
    expect(f.fix.map((s) => s.key.split('.').pop())).toStrictEqual(['members', 'restore', 'noRemoval']);
  });

  it('is silent when every member is healthy again, and counts a member whose etcd probe fails as down', () => {
    const { now, objects } = objectsOf('etcd-quorum');

    setReady(nodeNamed(objects, 'q-cp-03'), 'True');
    expect(clusterFindings(now, objects).map((x) => x.rule)).not.toContain('etcd-quorum');
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.labels?.['rke.cattle.io/machine-name'] === CLUSTER_HEALTH_MACHINES.etcdDown);

    secret.data['probe-statuses'] = Buffer.from(JSON.stringify({ etcd: { healthy: false, failureCount: 30 }, kubelet: { healthy: true, successCount: 900 } })).toString('base64');
    expect(clusterFindings(now, objects).find((x) => x.rule === 'etcd-quorum')?.args).toMatchObject({ healthy: 2, down: `${ CLUSTER_HEALTH_MACHINES.etcdDown } (q-cp-03)` });
  });

  it('cannot judge without the Nodes, and says nothing rather than guess', () => {
    const { now, objects } = objectsOf('etcd-quorum');
    const withoutNodes = objects.filter((o) => !(o.kind === 'Node' && o.apiVersion === 'v1'));

    expect(clusterFindings(now, withoutNodes, { availability: { nodes: 'forbidden' } }).map((x) => x.rule)).not.toContain('etcd-quorum');
  });

  it('does not count a machine that never joined (no Node, no nodeRef) as a member', () => {
    const { now, objects } = objectsOf('etcd-quorum');
    const extra = JSON.parse(JSON.stringify(objects.find((o) => o.kind === 'Machine' && o.metadata.name === CLUSTER_HEALTH_MACHINES.etcdDown)));

    setReady(nodeNamed(objects, 'q-cp-03'), 'True');
    extra.metadata = {
      ...extra.metadata, name: 'custom-0c0ffee0c0ff', uid: 'c0ffee00-0000-4000-8000-000000000001'
    };
    delete extra.status.nodeRef;
    expect(clusterFindings(now, [...objects, extra]).map((x) => x.rule)).not.toContain('etcd-quorum');
  });
});

describe('control-plane-unavailable', () => {
  it('no control-plane node is Ready: an error naming them, and silent once one is back', () => {
    const { now, objects } = objectsOf('control-plane-down');
    const f = clusterFindings(now, objects).find((x) => x.rule === 'control-plane-unavailable')!;

    expect(f.args).toMatchObject({ members: 1, down: `${ CLUSTER_HEALTH_MACHINES.controlPlane } (cpl-cp-01)` });
    setReady(nodeNamed(objects, 'cpl-cp-01'), 'True');
    expect(clusterFindings(now, objects).map((x) => x.rule)).not.toContain('control-plane-unavailable');
  });
});

describe('role-missing', () => {
  it('names the role no machine has', () => {
    const { now, objects } = objectsOf('no-worker');

    const f = clusterFindings(now, objects).find((x) => x.rule === 'role-missing')!;

    expect(f.args).toMatchObject({ roles: 'worker', machines: 3 });
    // The planner's sanity check says so too, and since when.
    expect(f.evidence.map((e) => e.value)).toContain('waiting for at least one control plane, etcd, and worker node to be registered');
    expect(f.args.cluster).toBe('nw-rke2');
    expect(Date.parse(now) - Date.parse(f.since as string)).toBe(3 * 60 * 60 * 1000);
  });

  it('does not count machines that are being deleted', () => {
    const { now, objects } = objectsOf('healthy');

    for (const m of objects.filter((o) => o.kind === 'Machine' && o.metadata.labels?.['rke.cattle.io/worker-role'] === 'true' && o.metadata.labels?.['rke.cattle.io/etcd-role'] !== 'true')) {
      m.metadata.deletionTimestamp = now;
    }
    expect(clusterFindings(now, objects).find((x) => x.rule === 'role-missing')?.args.roles).toBe('worker');
  });

  it('says nothing when the machines could not all be read', () => {
    const { now, objects } = objectsOf('no-worker');

    expect(clusterFindings(now, objects, { availability: { machines: 'partial' } }).map((x) => x.rule)).not.toContain('role-missing');
  });
});

describe('reconciliation-paused', () => {
  it('quotes the planner and says since when; silent once the cluster is updated', () => {
    const { now, objects } = objectsOf('reconciliation-paused');
    const f = clusterFindings(now, objects).find((x) => x.rule === 'reconciliation-paused')!;

    expect(f.args.duration).toBe(3 * 60 * 60 * 1000);
    expect(f.evidence.map((e) => e.value)).toContain('CAPI cluster or RKEControlPlane is paused');
    const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.map((c: any) => (c.type === 'Updated' ? {
      type: 'Updated', status: 'True', lastUpdateTime: now
    } : c));
    expect(clusterFindings(now, objects).map((x) => x.rule)).not.toContain('reconciliation-paused');
  });
});

describe('a cluster check that throws', () => {
  it('leaves a note with the check and the reason on its cluster, and the other checks still run', () => {
    const rules = CLUSTER_RULES as ClusterRule[];
    const broken: ClusterRule = {
      id:       'etcd-quorum',
      severity: 'error',
      check() {
        throw new Error('members is not iterable');
      }
    };
    const { now, objects } = objectsOf('no-worker');

    rules.unshift(broken);
    try {
      const cluster = diagnose(objects, { now }).clusters[0];

      expect(cluster.notes).toStrictEqual([{ key: 'nodeHealth.notes.ruleFailed', args: { rule: 'etcd-quorum', message: 'members is not iterable' } }]);
      expect(cluster.findings.map((f) => f.rule)).toContain('role-missing');
    } finally {
      rules.splice(rules.indexOf(broken), 1);
    }
    expect(diagnose(objects, { now }).clusters[0].notes).toStrictEqual([]);
  });
});
