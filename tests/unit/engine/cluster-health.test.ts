/**
 * What only the whole cluster shows: etcd quorum, a control plane with no healthy member, a role no machine has,
 * reconciliation paused. Each starts from its scenario and changes one thing the way Kubernetes or Rancher would.
 */
import { diagnose } from '@pkg/node-health/engine';
import type { DiagnoseOptions, Finding } from '@pkg/node-health/engine';
import { CLUSTER_RULES } from '@pkg/node-health/engine/rules/cluster';
import type { ClusterRule } from '@pkg/node-health/engine/rules/cluster';
import { parseRange, scaledLimit } from '@pkg/node-health/engine/rules/capi-health';
import { buildScenario, CLUSTER_HEALTH_MACHINES, MHC_BLOCKED_MACHINES } from '../../../scenarios/catalog';
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

/** The kubelet's last write of its Node, `minutes` before `now`: every condition's heartbeat is that moment. */
function writtenAgo(node: any, now: string, minutes: number): void {
  const at = new Date(Date.parse(now) - minutes * 60000).toISOString().replace(/\.\d+Z$/, 'Z');

  node.status.conditions = node.status.conditions.map((c: any) => ({ ...c, lastHeartbeatTime: at }));
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
    writtenAgo(nodeNamed(objects, 'q-cp-03'), now, 0);
    expect(diagnose(objects, { now }).clusters[0]).toMatchObject({ findings: [], notes: [] });
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.labels?.['rke.cattle.io/machine-name'] === CLUSTER_HEALTH_MACHINES.etcdDown);

    secret.data['probe-statuses'] = Buffer.from(JSON.stringify({ etcd: { healthy: false, failureCount: 30 }, kubelet: { healthy: true, successCount: 900 } })).toString('base64');
    expect(clusterFindings(now, objects).find((x) => x.rule === 'etcd-quorum')?.args).toMatchObject({ healthy: 2, down: `${ CLUSTER_HEALTH_MACHINES.etcdDown } (q-cp-03)` });
  });

  it('cannot judge without the Nodes: no finding, and the cluster says why', () => {
    const { now, objects } = objectsOf('etcd-quorum');
    const withoutNodes = objects.filter((o) => !(o.kind === 'Node' && o.apiVersion === 'v1'));
    const cluster = diagnose(withoutNodes, { now, availability: { nodes: 'forbidden' } }).clusters[0];

    expect(cluster.findings.map((x) => x.rule)).not.toContain('etcd-quorum');
    expect(cluster.notes).toContainEqual({
      key:  'nodeHealth.notes.notJudged',
      args: expect.objectContaining({
        check: 'etcdQuorum', why: 'nodesUnreadable', count: 3
      })
    });
  });

  // rancher/rancher#13578: Nodes shown Ready long after their hosts were powered off, nothing having marked them
  // Unknown. Such a Ready is no proof that the member answers.
  it('counts no member healthy from a stale Ready: one down and one stale may be a lost quorum, an error that says so', () => {
    const { now, objects } = objectsOf('etcd-quorum');

    writtenAgo(nodeNamed(objects, 'q-cp-02'), now, 30);
    const report = diagnose(objects, { now });
    const f = report.clusters[0].findings.find((x) => x.rule === 'etcd-quorum')!;

    expect(f.severity).toBe('error');
    expect(f.args).toMatchObject({
      lost: 'unknown', healthy: 2, members: 3, quorum: 2, down: `${ CLUSTER_HEALTH_MACHINES.etcdDown } (q-cp-03)`
    });
    expect(String(f.args.unknown)).toContain('(q-cp-02)');
    expect(f.fix.map((s) => s.key.split('.').pop())).toStrictEqual(['members', 'checkUnknown', 'bringBackFirst', 'noRemoval']);
    // Whether a member answers is etcd's endpoint health: its member list answers without a majority.
    expect(f.fix[1].command).toMatch(/etcdctl .* endpoint health --cluster$/);
    // Both rows point to it: the member down, and the one whose health decides it.
    const noteOf = (node: string) => report.records.find((r) => r.nodeName === node)!.notes.find((n) => n.key === 'nodeHealth.notes.partOf.etcdQuorum');

    expect(noteOf('q-cp-03')?.args).toMatchObject({ member: 'down', lost: 'unknown' });
    expect(noteOf('q-cp-02')?.args).toMatchObject({ member: 'unknown', healthy: 2 });
    expect(noteOf('q-cp-01')).toBeUndefined();
  });

  it('with every other member Ready, a stale one leaves the quorum not judged: a note naming it and the age of its status', () => {
    const { now, objects } = objectsOf('etcd-quorum');

    setReady(nodeNamed(objects, 'q-cp-03'), 'True');
    writtenAgo(nodeNamed(objects, 'q-cp-03'), now, 0);
    writtenAgo(nodeNamed(objects, 'q-cp-02'), now, 30);
    const cluster = diagnose(objects, { now }).clusters[0];

    expect(cluster.findings.map((x) => x.rule)).not.toContain('etcd-quorum');
    expect(cluster.notes).toStrictEqual([{
      key:  'nodeHealth.notes.notJudged',
      args: expect.objectContaining({
        check: 'etcdQuorum', why: 'stale', count: 1, duration: 30 * 60000
      }),
    }]);
    expect(String(cluster.notes![0].args!.members)).toContain('(q-cp-02)');
    // Within node-status-stale's threshold the Ready is still taken.
    writtenAgo(nodeNamed(objects, 'q-cp-02'), now, 9);
    expect(diagnose(objects, { now }).clusters[0].notes).toStrictEqual([]);
  });

  it('names every member not known, the first reason\'s in the note\'s sentence and the others after it', () => {
    const { now, objects } = objectsOf('etcd-quorum');

    setReady(nodeNamed(objects, 'q-cp-03'), 'True');
    writtenAgo(nodeNamed(objects, 'q-cp-03'), now, 0);
    writtenAgo(nodeNamed(objects, 'q-cp-02'), now, 30);
    const noReady = nodeNamed(objects, 'q-cp-01');

    noReady.status.conditions = noReady.status.conditions.filter((c: any) => c.type !== 'Ready');
    const note = diagnose(objects, { now }).clusters[0].notes?.find((n) => n.args?.check === 'etcdQuorum');

    expect(note?.args).toMatchObject({ why: 'noReady', count: 1 });
    expect(String(note?.args?.members)).toContain('(q-cp-01)');
    expect(String(note?.args?.others)).toContain('(q-cp-02)');
    expect(String(note?.args?.others)).not.toContain('q-cp-01');
    // One reason alone: no others.
    noReady.status.conditions.push({
      type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now
    });
    expect(diagnose(objects, { now }).clusters[0].notes?.find((n) => n.args?.check === 'etcdQuorum')?.args?.others).toBe('none');
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

  it('none Ready but one whose Ready is stale: not judged, and the cluster says why', () => {
    const { now, objects } = objectsOf('control-plane-down');

    setReady(nodeNamed(objects, 'cpl-cp-01'), 'True');
    writtenAgo(nodeNamed(objects, 'cpl-cp-01'), now, 20);
    const cluster = diagnose(objects, { now }).clusters[0];

    expect(cluster.findings.map((x) => x.rule)).not.toContain('control-plane-unavailable');
    expect(cluster.notes).toContainEqual({
      key:  'nodeHealth.notes.notJudged',
      args: expect.objectContaining({
        check: 'controlPlane', why: 'stale', duration: 20 * 60000
      })
    });
  });
});

describe('nodes-status-frozen', () => {
  const frozen = () => objectsOf('nodes-frozen');
  const statusesAt = (objects: any[], at: string) => objects.filter((o) => o.kind === 'Node' && o.apiVersion === 'v1').forEach((n) => {
    n.status.conditions = n.status.conditions.map((c: any) => ({ ...c, lastHeartbeatTime: at }));
  });

  it('no Node written for 25 minutes, the agent connected: one error for the cluster, and each stale row points to it', () => {
    const { now, objects } = frozen();
    const report = diagnose(objects, { now });
    const f = report.clusters[0].findings.find((x) => x.rule === 'nodes-status-frozen')!;

    expect(f.severity).toBe('error');
    expect(f.args).toMatchObject({
      cluster: 'fz-rke2', nodes: 4, duration: 25 * 60000, leases: 'stopped'
    });
    expect(f.since).toBe('2026-05-08T07:20:00Z');
    // The newest status written, and the newest Lease renewed: as old.
    expect(f.evidence).toHaveLength(2);
    expect(f.evidence[0].path).toBe('status.conditions[Ready].lastHeartbeatTime');
    expect(f.evidence[1]).toMatchObject({
      object: expect.stringMatching(/^Lease kube-node-lease\/fz-/), path: 'spec.renewTime', value: expect.stringMatching(/^2026-05-08T07:20:00\.\d{6}Z$/)
    });
    expect(f.fix.map((s) => s.key.split('.').pop())).toStrictEqual(['api', 'etcd', 'controllers', 'agent']);
    expect(f.fix[0].command).toContain('/var/lib/rancher/rke2/bin/kubectl --kubeconfig /etc/rancher/rke2/rke2.yaml get nodes');
    expect(f.fix[1].command).toMatch(/etcdctl .* endpoint health --cluster$/);
    for (const r of report.records.filter((x) => x.objects.node)) {
      expect([r.nodeName, r.findings.map((x) => x.rule)]).toEqual([r.nodeName, ['node-status-stale']]);
      expect(r.notes).toContainEqual(expect.objectContaining({ key: 'nodeHealth.notes.partOf.nodesStatusFrozen' }));
      // Its Lease is as old as its status: nothing reaches the cluster from its kubelet.
      expect(r.findings[0].args?.lease).toBe('stopped');
      expect(Math.floor(Number(r.findings[0].args?.leaseAge) / 1000)).toBe(25 * 60 - 1);
      expect(r.findings[0].evidence.map((e) => [e.object, e.path])).toContainEqual([`Lease kube-node-lease/${ r.nodeName }`, 'spec.renewTime']);
      // Comparing every Node's heartbeat is the cluster's step: the row's plan does not ask it again.
      expect([r.nodeName, r.resolution?.steps.map((x) => x.key.split('.').pop())]).toEqual([r.nodeName, ['kubeletLinux', 'leaseLog']]);
      expect(r.findings[0].fix.map((x) => x.key.split('.').pop())).toContain('allNodes');
    }
    // Without the Leases (a healthy cluster's load reads none), each row asks to read its Lease by hand.
    const unread = diagnose(objects.filter((o) => o.kind !== 'Lease'), { now });

    expect(unread.clusters[0].findings.find((x) => x.rule === 'nodes-status-frozen')?.evidence).toHaveLength(1);
    expect(unread.clusters[0].findings.find((x) => x.rule === 'nodes-status-frozen')?.args?.leases).toBe('unread');
    for (const r of unread.records.filter((x) => x.objects.node)) {
      expect(r.findings[0].args?.lease).toBe('unread');
      expect([r.nodeName, r.resolution?.steps.map((x) => x.key.split('.').pop())]).toEqual([r.nodeName, ['lease', 'kubeletLog']]);
    }
    // Its etcd members and control plane all say Ready, but from statuses as old: neither is judged healthy.
    expect(report.clusters[0].notes?.map((n) => [n.args?.check, n.args?.why, n.args?.count])).toStrictEqual([['etcdQuorum', 'stale', 3], ['controlPlane', 'stale', 1]]);
  });

  it('says nothing while one Node was written within the threshold: then it is those hosts, not the cluster', () => {
    const { now, objects } = frozen();
    const live = nodeNamed(objects, 'fz-cp-01');

    live.status.conditions = live.status.conditions.map((c: any) => (c.type === 'Ready' ? { ...c, lastHeartbeatTime: '2026-05-08T07:43:00Z' } : c));
    const report = diagnose(objects, { now });

    expect(report.clusters[0].findings.map((x) => x.rule)).not.toContain('nodes-status-frozen');
    const stale = report.records.filter((r) => r.findings.some((x) => x.rule === 'node-status-stale'));

    expect(stale).toHaveLength(3);
    // Without the cluster's finding, each row asks to compare every Node's heartbeat itself.
    expect(stale.map((r) => r.resolution?.steps.map((x) => x.key.split('.').pop()))).toEqual([0, 1, 2].map(() => ['allNodes', 'kubeletLinux', 'leaseLog']));
  });

  it('says nothing while a kubelet renews its Lease: the API server and etcd take writes, and that row says its status writes fail', () => {
    const { now, objects } = frozen();
    const lease = objects.find((o) => o.kind === 'Lease' && o.metadata.name === 'fz-etcd-02');

    lease.spec.renewTime = '2026-05-08T07:44:51.204117Z';
    const report = diagnose(objects, { now });

    expect(report.clusters[0].findings.map((x) => x.rule)).not.toContain('nodes-status-frozen');
    const renewing = report.records.find((r) => r.nodeName === 'fz-etcd-02')!;

    expect(renewing.findings[0].args).toMatchObject({ lease: 'renewed', leaseAge: 8796 });
    expect(renewing.findings[0].evidence).toContainEqual({
      object: 'Lease kube-node-lease/fz-etcd-02', path: 'spec.renewTime', value: '2026-05-08T07:44:51.204117Z'
    });
    expect(renewing.resolution?.steps.map((x) => x.key.split('.').pop())).toEqual(['kubeletLog', 'statusWrites']);
    // A renewal three of its 40 s durations old no longer counts.
    lease.spec.renewTime = '2026-05-08T07:43:00.000000Z';
    expect(diagnose(objects, { now }).records.find((r) => r.nodeName === 'fz-etcd-02')!.findings[0].args?.lease).toBe('stopped');
    lease.spec.renewTime = '2026-05-08T07:43:00.001000Z';
    expect(diagnose(objects, { now }).records.find((r) => r.nodeName === 'fz-etcd-02')!.findings[0].args?.lease).toBe('renewed');
    // A Lease that says no time of renewal tells nothing: read by hand, as where none was read.
    delete lease.spec.renewTime;
    const unsaid = diagnose(objects, { now }).records.find((r) => r.nodeName === 'fz-etcd-02')!.findings[0];

    expect(unsaid.args?.lease).toBe('unread');
    expect(unsaid.fix[0].key).toBe('nodeHealth.rules.nodeStatusStale.fix.lease');
  });

  it('counts a transition as a write: a Node the controller marked Unknown 2 minutes ago shows the controllers run', () => {
    const { now, objects } = frozen();

    setReady(nodeNamed(objects, 'fz-etcd-01'), 'Unknown');
    nodeNamed(objects, 'fz-etcd-01').status.conditions.find((c: any) => c.type === 'Ready').lastTransitionTime = '2026-05-08T07:43:00Z';

    expect(clusterFindings(now, objects).map((x) => x.rule)).not.toContain('nodes-status-frozen');
  });

  it('leaves it to the agent\'s finding while the agent is disconnected: then Rancher\'s view is what stopped', () => {
    const { now, objects } = frozen();
    const mgmt = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('management.cattle.io'));

    mgmt.status.conditions = [...(mgmt.status.conditions ?? []).filter((c: any) => c.type !== 'Connected'), {
      type: 'Connected', status: 'False', lastTransitionTime: '2026-05-08T07:20:00Z', lastUpdateTime: '2026-05-08T07:20:00Z'
    }];
    const rules = clusterFindings(now, objects).map((x) => x.rule);

    expect(rules).toContain('cluster-agent-disconnected');
    expect(rules).not.toContain('nodes-status-frozen');
  });

  it('says nothing within the threshold, and from it on', () => {
    const { objects } = frozen();

    statusesAt(objects, '2026-05-08T07:20:00Z');
    expect(clusterFindings('2026-05-08T07:29:59Z', objects).map((x) => x.rule)).not.toContain('nodes-status-frozen');
    expect(clusterFindings('2026-05-08T07:30:00Z', objects).map((x) => x.rule)).toContain('nodes-status-frozen');
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

  /** The healthy cluster, its Updated saying what rancher#53343's RKEControlPlane said (planner.go clusterIsSane). */
  function sayingRolesMissing(objects: any[], now: string, forMs = 16 * 3600 * 1000): void {
    const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.filter((c: any) => c.type !== 'Updated').concat({
      type: 'Updated', status: 'Unknown', reason: 'Waiting', message: 'waiting for at least one control plane, etcd, and worker node to be registered', lastUpdateTime: new Date(Date.parse(now) - forMs).toISOString()
    });
  }
  const planSecrets = (objects: any[]) => objects.filter((o) => o.kind === 'Secret' && o.type === 'rke.cattle.io/machine-plan');

  it('counts roles as the planner does, from the plan secrets\' labels: a role only Machines carry is none to it', () => {
    const { now, objects } = objectsOf('healthy');
    const workers = objects.filter((o) => o.kind === 'Machine' && o.metadata.labels?.['rke.cattle.io/worker-role'] === 'true').map((o) => o.metadata.name).sort();

    sayingRolesMissing(objects, now);
    for (const secret of planSecrets(objects)) {
      delete secret.metadata.labels['rke.cattle.io/worker-role'];
    }
    const f = clusterFindings(now, objects).find((x) => x.rule === 'role-missing')!;

    expect(f).toMatchObject({
      severity: 'error',
      args:     {
        state: 'planSecrets', roles: 'worker', count: workers.length
      }
    });
    expect(f.args.holders).toBe(workers.join(', '));
    expect(f.evidence).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'metadata.labels[rke.cattle.io/worker-role]', value: null })]));
    expect(f.fix.map((x) => x.key.split('.').pop())).toEqual(['planRoles', 'bootstrapRoles']);
    expect(f.fix[0].command).toContain('-L rke.cattle.io/etcd-role,rke.cattle.io/control-plane-role,rke.cattle.io/worker-role');
    // It explains Rancher's wait: the cluster's net stays silent.
    expect(clusterFindings(now, objects).map((x) => x.rule)).not.toContain('unexplained-cluster-wait');
  });

  it('names the machines of the role whose plan secret is gone', () => {
    const { now, objects } = objectsOf('healthy');
    const etcd = objects.filter((o) => o.kind === 'Machine' && o.metadata.labels?.['rke.cattle.io/etcd-role'] === 'true').map((o) => o.metadata.name);
    const kept = objects.filter((o) => !(o.kind === 'Secret' && etcd.some((m: string) => o.metadata.name === `${ m }-machine-plan`)));

    // Without Rancher's word, or for less time than a node may take to start, a plan secret may only be on its way.
    expect(clusterFindings(now, kept).map((x) => x.rule)).not.toContain('role-missing');
    sayingRolesMissing(kept, now, 9 * 60 * 1000);
    expect(clusterFindings(now, kept).map((x) => x.rule)).not.toContain('role-missing');
    sayingRolesMissing(kept, now);
    const f = clusterFindings(now, kept).find((x) => x.rule === 'role-missing')!;

    // The healthy cluster's etcd machines are its control plane too.
    expect(f.args).toMatchObject({
      state: 'planSecrets', roles: 'etcd, controlplane', count: etcd.length
    });
    expect(f.fix.find((x) => x.key.endsWith('.noPlanSecret'))?.args).toMatchObject({ count: etcd.length });
    // Where the plan secrets could not all be read, only the Machines' roles count.
    expect(clusterFindings(now, kept, { availability: { planSecrets: 'partial' } }).map((x) => x.rule)).not.toContain('role-missing');
  });

  it('says a cluster with no machine yet waits for its first ones, an info, only when Rancher says so', () => {
    const { now, objects } = objectsOf('healthy');
    const empty = objects.filter((o) => !['Machine', 'Secret', 'RKEBootstrap', 'CustomMachine', 'Node'].includes(o.kind));
    // As the tab reads it: the cluster's machines were listed, and there are none.
    const read = { availability: { machines: 'ok' as const, planSecrets: 'ok' as const } };

    expect(clusterFindings(now, empty, read).map((x) => x.rule)).not.toContain('role-missing');
    sayingRolesMissing(empty, now);
    expect(clusterFindings(now, empty, read).find((x) => x.rule === 'role-missing')).toMatchObject({ severity: 'info', args: { state: 'none', machines: 0 } });
    expect(clusterFindings(now, empty, read).map((x) => x.rule)).not.toContain('unexplained-cluster-wait');
    // From kubectl output without a Machine, whether there are none cannot be told.
    expect(clusterFindings(now, empty).map((x) => x.rule)).not.toContain('role-missing');
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
    const capi = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('cluster.x-k8s.io/'));

    delete capi.spec.paused;
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

const capiOf = (objects: any[], kind: string) => objects.filter((o) => o.kind === kind && o.apiVersion.startsWith('cluster.x-k8s.io/'));

describe('reconciliation-paused, read from Cluster API\'s objects', () => {
  it('names the paused CAPI Cluster beside the planner\'s words, and gives its resume command', () => {
    const { now, objects } = objectsOf('reconciliation-paused');
    const f = clusterFindings(now, objects).find((x) => x.rule === 'reconciliation-paused')!;

    expect(f.args).toMatchObject({
      scope: 'cluster', objects: 'CAPI Cluster pz-rke2 (spec.paused)', timed: 'yes'
    });
    expect(f.evidence).toContainEqual({
      object: 'CAPI Cluster fleet-default/pz-rke2', path: 'spec.paused', value: true
    });
    expect(f.fix.find((s) => s.key.endsWith('.resume'))?.command).toBe(`kubectl -n fleet-default patch clusters.cluster.x-k8s.io pz-rke2 --type=merge -p '{"spec":{"paused":false}}'`);
  });

  it('fires on a paused CAPI Cluster before the planner says so, with the time of its Paused condition', () => {
    const { now, objects } = objectsOf('reconciliation-paused');
    const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.filter((c: any) => c.type !== 'Updated');
    const f = clusterFindings(now, objects).find((x) => x.rule === 'reconciliation-paused')!;

    expect(f.since).toBe(capiOf(objects, 'Cluster')[0].status.v1beta2.conditions[0].lastTransitionTime);
    expect(f.args.duration).toBe(3 * 60 * 60 * 1000);
  });

  it('a pool paused by annotation is a pause of that pool: its machines point to the finding, the others do not', () => {
    const { now, objects } = objectsOf('health-check-blocked');
    const [deployment] = capiOf(objects, 'MachineDeployment').filter((o) => o.metadata.name === 'vs-mhc-wk');

    deployment.metadata.annotations = { 'cluster.x-k8s.io/paused': '' };
    const report = diagnose(objects, { now });
    const f = report.clusters[0].findings.find((x) => x.rule === 'reconciliation-paused')!;

    expect(f.args).toMatchObject({
      scope: 'pool', objects: 'MachineDeployment vs-mhc-wk (cluster.x-k8s.io/paused)', timed: 'no'
    });
    expect(f.fix.map((s) => s.command)).toContain('kubectl -n fleet-default annotate machinedeployments.cluster.x-k8s.io vs-mhc-wk cluster.x-k8s.io/paused-');
    const noted = report.records.filter((r) => r.notes.some((n) => n.key === 'nodeHealth.notes.partOf.reconciliationPaused')).map((r) => r.machineName);

    expect(noted).toHaveLength(3);
    expect(noted.every((m) => m?.startsWith('vs-mhc-wk-'))).toBe(true);
  });

  it('says nothing of a cluster whose objects are not paused', () => {
    const { now, objects } = objectsOf('health-check-blocked');

    expect(clusterFindings(now, objects).map((x) => x.rule)).not.toContain('reconciliation-paused');
  });
});

describe('plan-secret-missing says why Rancher has written none', () => {
  const unplanned = CLUSTER_HEALTH_MACHINES.unplanned;
  const planFinding = (now: string, objects: any[]) => {
    const record = diagnose(objects, { now }).records.find((r) => r.machineName === unplanned)!;

    return { record, finding: record.findings.find((f) => f.rule === 'plan-secret-missing')! };
  };
  const bootstrapOf = (objects: any[]) => objects.find((o) => o.kind === 'RKEBootstrap' && o.metadata.name === unplanned);

  it('a paused CAPI Cluster: the pause is the reason, and the only step is the cluster\'s', () => {
    const { now, objects } = objectsOf('reconciliation-paused');
    const { record, finding } = planFinding(now, objects);

    expect(finding.args).toMatchObject({ why: 'clusterPaused', cluster: 'pz-rke2' });
    expect(finding.evidence).toContainEqual({
      object: 'CAPI Cluster fleet-default/pz-rke2', path: 'spec.paused', value: true
    });
    expect(record.resolution?.rootCause).toBe('plan-secret-missing');
    expect(record.resolution?.steps.map((s) => s.key)).toStrictEqual(['nodeHealth.rules.planSecretMissing.fix.afterPause']);
  });

  it('the wait for its Node says no plan reached the host, though the paused planner wrote it no Reconciled condition', () => {
    const { now, objects } = objectsOf('reconciliation-paused');
    const machine = objects.find((o) => o.kind === 'Machine' && o.metadata.name === unplanned);
    const { record } = planFinding(now, objects);

    expect(machine.status.conditions.map((c: any) => c.type)).not.toContain('Reconciled');
    expect(record.findings.find((f) => f.rule === 'waiting-for-node-ref')?.args).toMatchObject({ family: 'noPlanSecret', secret: `${ unplanned }-machine-plan` });
    // Plan secrets that could not be read tell nothing of this one.
    const unread = diagnose(objects, { now, availability: { planSecrets: 'forbidden' } }).records.find((r) => r.machineName === unplanned)!;

    expect(unread.findings.find((f) => f.rule === 'waiting-for-node-ref')?.args.family).not.toBe('noPlanSecret');
  });

  it('a paused RKEBootstrap: its annotation is the reason, and the step removes it', () => {
    const { now, objects } = objectsOf('reconciliation-paused');

    capiOf(objects, 'Cluster')[0].spec.paused = false;
    bootstrapOf(objects).metadata.annotations = { ...bootstrapOf(objects).metadata.annotations, 'cluster.x-k8s.io/paused': '' };
    const { finding } = planFinding(now, objects);

    expect(finding.args).toMatchObject({ why: 'bootstrapPaused', bootstrap: unplanned });
    expect(finding.evidence).toContainEqual({
      object: `RKEBootstrap fleet-default/${ unplanned }`, path: 'metadata.annotations[cluster.x-k8s.io/paused]', value: ''
    });
    expect(finding.fix.map((s) => s.command)).toStrictEqual([`kubectl -n fleet-default annotate rkebootstraps.rke.cattle.io -- ${ unplanned } cluster.x-k8s.io/paused-`]);
  });

  it('the CAPI Cluster\'s paused annotation does not hold the plan secret back (Cluster API\'s IsPaused reads the Cluster\'s spec only)', () => {
    const { now, objects } = objectsOf('reconciliation-paused');
    const capi = capiOf(objects, 'Cluster')[0];

    capi.spec.paused = false;
    capi.metadata.annotations = { ...capi.metadata.annotations, 'cluster.x-k8s.io/paused': '' };
    const { finding } = planFinding(now, objects);

    expect(finding.args.why).toBe('other');
    expect(finding.fix.map((s) => s.key.split('.').pop())).toStrictEqual(['checkBootstrap', 'rancherLogs']);
  });
});

describe('plan-secret-missing reads the rest of what the RKEBootstrap controller waits for', () => {
  const unplanned = CLUSTER_HEALTH_MACHINES.unplanned;
  const planFinding = (now: string, objects: any[]) => {
    const record = diagnose(objects, { now }).records.find((r) => r.machineName === unplanned)!;

    return { record, finding: record.findings.find((f) => f.rule === 'plan-secret-missing')! };
  };
  // The cluster no longer paused: what else holds the plan secret back.
  const unpaused = () => {
    const { now, objects } = objectsOf('reconciliation-paused');

    capiOf(objects, 'Cluster')[0].spec.paused = false;

    return { now, objects };
  };
  const bootstrapOf = (objects: any[]) => objects.find((o) => o.kind === 'RKEBootstrap' && o.metadata.name === unplanned);
  const machineOf = (objects: any[]) => objects.find((o) => o.kind === 'Machine' && o.metadata.name === unplanned);
  // A pool's RKEBootstrap before Cluster API's Machine controller reconciled its Machine: its MachineSet made it.
  const ownedByMachineSet = (objects: any[]) => {
    bootstrapOf(objects).metadata.ownerReferences = [{
      apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineSet', name: 'pz-rke2-pool1-5f6d8c7b9', uid: '8d0e2f4a-1b3c-4d5e-8f90-a1b2c3d4e5f6', controller: true, blockOwnerDeletion: true
    }];
  };

  it('no Machine owns the RKEBootstrap: Cluster API has not reconciled the Machine, whose log says why', () => {
    const { now, objects } = unpaused();

    ownedByMachineSet(objects);
    const { finding } = planFinding(now, objects);

    expect(finding.args).toMatchObject({ why: 'noOwner', bootstrap: unplanned });
    expect(finding.evidence).toContainEqual({
      object: `RKEBootstrap fleet-default/${ unplanned }`, path: 'metadata.ownerReferences[].kind', value: 'MachineSet'
    });
    expect(finding.fix.map((s) => s.command)).toStrictEqual([
      `kubectl -n fleet-default get rkebootstraps.rke.cattle.io -o yaml -- ${ unplanned }`,
      `kubectl -n cattle-provisioning-capi-system logs deployment/capi-controller-manager --since=1h | grep -F ${ unplanned }`,
    ]);
  });

  it('a paused Machine: the reason no Machine owns it, and its resume is asked once in the row\'s plan', () => {
    const { now, objects } = unpaused();
    const resume = `kubectl -n fleet-default annotate machines.cluster.x-k8s.io -- ${ unplanned } cluster.x-k8s.io/paused-`;

    ownedByMachineSet(objects);
    machineOf(objects).metadata.annotations = { ...machineOf(objects).metadata.annotations, 'cluster.x-k8s.io/paused': '' };
    const { record, finding } = planFinding(now, objects);

    expect(finding.args).toMatchObject({ why: 'machinePaused', machine: unplanned });
    expect(finding.evidence).toContainEqual({
      object: `Machine fleet-default/${ unplanned }`, path: 'metadata.annotations[cluster.x-k8s.io/paused]', value: ''
    });
    expect(finding.fix.map((s) => s.command)).toStrictEqual([resume]);
    // The pause leads the row's plan: what Cluster API leaves undone for a paused Machine follows from it.
    expect(record.resolution?.rootCause).toBe('machine-signal');
    expect(record.resolution?.consequences).toStrictEqual(['plan-secret-missing', 'waiting-for-node-ref']);
    expect(record.resolution?.steps.map((s) => s.command)).toStrictEqual([
      `kubectl -n fleet-default get machines.cluster.x-k8s.io --show-managed-fields -o yaml -- ${ unplanned }`, resume,
    ]);
  });

  it('an RKEBootstrap read without its owners is not one no Machine owns', () => {
    const { now, objects } = unpaused();

    delete bootstrapOf(objects).metadata.ownerReferences;

    expect(planFinding(now, objects).finding.args.why).toBe('other');
  });

  it('infrastructure not provisioned, in v1beta1\'s field and condition: the CAPI Cluster\'s conditions, then Cluster API\'s log', () => {
    const { now, objects } = unpaused();
    const capi = capiOf(objects, 'Cluster')[0];

    capi.status.infrastructureReady = false;
    capi.status.conditions = capi.status.conditions.map((c: any) => (c.type === 'InfrastructureReady' ? {
      ...c, status: 'False', reason: 'WaitingForInfrastructure', severity: 'Info'
    } : c));
    const { finding } = planFinding(now, objects);

    expect(finding.args).toMatchObject({ why: 'infrastructure', cluster: 'pz-rke2' });
    expect(finding.evidence).toContainEqual({
      object: 'CAPI Cluster fleet-default/pz-rke2', path: 'status.infrastructureReady', value: false
    });
    expect(finding.evidence.map((e) => e.value)).toContain('WaitingForInfrastructure');
    expect(finding.fix.map((s) => s.command)).toStrictEqual([
      'kubectl -n fleet-default describe clusters.cluster.x-k8s.io -- pz-rke2',
      'kubectl -n cattle-provisioning-capi-system logs deployment/capi-controller-manager --since=1h | grep -F pz-rke2',
    ]);
  });

  it('infrastructure in v1beta2\'s field: provisioned says so; not provisioned, or absent with the condition False, holds it back', () => {
    const { now, objects } = unpaused();
    const capi = capiOf(objects, 'Cluster')[0];

    capi.apiVersion = 'cluster.x-k8s.io/v1beta2';
    delete capi.status.infrastructureReady;
    capi.status.initialization = { infrastructureProvisioned: true };
    expect(planFinding(now, objects).finding.args.why).toBe('other');

    capi.status.initialization = { infrastructureProvisioned: false };
    expect(planFinding(now, objects).finding.evidence).toContainEqual({
      object: 'CAPI Cluster fleet-default/pz-rke2', path: 'status.initialization.infrastructureProvisioned', value: false
    });

    // v1beta2 leaves out a zero initialization: only the condition says it then.
    delete capi.status.initialization;
    expect(planFinding(now, objects).finding.args.why).toBe('other');
    capi.status.conditions = [{
      type: 'InfrastructureReady', status: 'False', reason: 'NotReady', message: 'RKECluster status.initialization.provisioned is false', lastTransitionTime: capi.metadata.creationTimestamp
    }];
    expect(planFinding(now, objects).finding.args.why).toBe('infrastructure');
  });
});

describe('health-check-cannot-remediate', () => {
  it('quotes the health check, names the pool, its limit and timeout, and the machines it would replace point to it', () => {
    const { now, objects } = objectsOf('health-check-blocked');
    const report = diagnose(objects, { now });
    const f = report.clusters[0].findings.find((x) => x.rule === 'health-check-cannot-remediate')!;

    expect(f.severity).toBe('warning');
    expect(f.args).toMatchObject({
      check: 'vs-mhc-wk', pool: 'vs-mhc-wk', total: 3, unhealthy: 2, limit: '1', range: 'no', timeout: '5m0s'
    });
    expect(String(f.args.machines).split(', ').sort()).toStrictEqual([...MHC_BLOCKED_MACHINES].sort());
    expect(f.evidence.map((e) => e.value)).toContain('Remediation is not allowed, the number of not started or unhealthy machines exceeds maxUnhealthy (total: 3, unhealthy: 2, maxUnhealthy: 1)');
    const noted = report.records.filter((r) => r.notes.some((n) => n.key === 'nodeHealth.notes.partOf.healthCheckCannotRemediate')).map((r) => r.machineName);

    expect(noted.sort()).toStrictEqual([...MHC_BLOCKED_MACHINES].sort());
  });

  it('is silent once the health check may remediate again', () => {
    const { now, objects } = objectsOf('health-check-blocked');
    const [mhc] = capiOf(objects, 'MachineHealthCheck');

    mhc.status.conditions = [{
      type: 'RemediationAllowed', status: 'True', lastTransitionTime: now
    }];
    expect(clusterFindings(now, objects).map((x) => x.rule)).not.toContain('health-check-cannot-remediate');
  });

  it.each([
    ['40% of 3 is 1', { maxUnhealthy: '40%' }, true],
    ['100% (Cluster API\'s default) allows all', {}, false],
    ['2 allows two', { maxUnhealthy: 2 }, false],
    ['a range that holds 2', { unhealthyRange: '[1-3]' }, false],
    ['a range above 2', { unhealthyRange: '[3-5]' }, true],
  ])('without its condition, judges its counts against its limit: %s', (_, spec, fires) => {
    const { now, objects } = objectsOf('health-check-blocked');
    const [mhc] = capiOf(objects, 'MachineHealthCheck');

    delete mhc.spec.maxUnhealthy;
    Object.assign(mhc.spec, spec);
    mhc.status.conditions = [];
    expect(clusterFindings(now, objects).map((x) => x.rule).includes('health-check-cannot-remediate')).toBe(fires);
  });

  it('reads a v1beta2 health check: remediation.triggerIf and its metav1 conditions', () => {
    const { now, objects } = objectsOf('health-check-blocked');
    const [mhc] = capiOf(objects, 'MachineHealthCheck');
    const condition = mhc.status.conditions[0];

    mhc.apiVersion = 'cluster.x-k8s.io/v1beta2';
    delete mhc.spec.maxUnhealthy;
    mhc.spec.remediation = { triggerIf: { unhealthyLessThanOrEqualTo: 1 } };
    mhc.spec.checks = {
      unhealthyNodeConditions: [{
        type: 'Ready', status: 'Unknown', timeoutSeconds: 300
      }]
    };
    delete mhc.spec.unhealthyConditions;
    mhc.status.conditions = [{
      type: 'RemediationAllowed', status: 'False', reason: 'TooManyUnhealthy', message: condition.message, lastTransitionTime: condition.lastTransitionTime, observedGeneration: 1
    }];
    const f = clusterFindings(now, objects).find((x) => x.rule === 'health-check-cannot-remediate')!;

    expect(f.args).toMatchObject({ limit: '1', timeout: '300s' });
    expect(f.evidence).toContainEqual(expect.objectContaining({ path: 'spec.remediation.triggerIf.unhealthyLessThanOrEqualTo', value: 1 }));
  });

  it('says nothing when the health checks could not be read', () => {
    const { now, objects } = objectsOf('health-check-blocked');

    expect(clusterFindings(now, objects, { availability: { machineHealthChecks: 'forbidden' } }).map((x) => x.rule)).not.toContain('health-check-cannot-remediate');
  });
});

describe('limits as Cluster API reads them', () => {
  it('scales an int-or-percent down, as GetScaledValueFromIntOrPercent without rounding up', () => {
    expect(scaledLimit('40%', 3)).toBe(1);
    expect(scaledLimit('100%', 7)).toBe(7);
    expect(scaledLimit(2, 10)).toBe(2);
    expect(scaledLimit('2', 10)).toBe(2);
    expect(scaledLimit('two', 10)).toBeNull();
  });

  it('reads a range only in its [min-max] form', () => {
    expect(parseRange('[3-5]')).toStrictEqual({ min: 3, max: 5 });
    expect(parseRange('[5-3]')).toBeNull();
    expect(parseRange('3-5')).toBeNull();
  });
});
