/**
 * The checks an action makes before it writes, each both ways, on the scenarios' real shapes: a live host, a VM
 * still there, etcd's quorum, a pause, a remediation under way, a disconnected agent, the user's permission.
 */
import { stuckRecord } from '../actions/fixtures';
import { diagnose } from '@pkg/node-health/engine';
import type { NodeRecord, PreflightCheck } from '@pkg/node-health/engine';
import { preflightOf } from '@pkg/node-health/engine/preflight';
import {
  buildScenario, CLUSTER_HEALTH_MACHINES, DELETE_FAILED_MACHINE, GHOST_MACHINE, LEAVING_ETCD_MACHINE, WINDOWS_CASE_MACHINE
} from '../../../scenarios/catalog';
import { clusterObjects, diagnoseScenario } from './helpers';
import type { Shape } from './helpers';

function objectsOf(name: string, shape: Shape = 'kubectl'): { now: string; objects: any[] } {
  const s = buildScenario(name);

  return { now: s.now, objects: JSON.parse(JSON.stringify(s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId, shape)))) };
}

function recordOf(report: { records: NodeRecord[] }, machine: string): NodeRecord {
  const r = report.records.find((x) => x.machineName === machine);

  if (!r) {
    throw new Error(`no record ${ machine }`);
  }

  return r;
}

function checkOf(r: NodeRecord, action: string, id: string): PreflightCheck | undefined {
  return r.preflight?.find((p) => p.id === action)?.checks.find((c) => c.id === id);
}

const outcome = (c: PreflightCheck | undefined) => c && `${ c.ok }:${ c.key.split('.').pop() }`;

describe('the finalizer removal\'s preflight', () => {
  it('on dev-k3s\'s ghost: no Node, a custom host, quorum kept: allowed', () => {
    const ghost = recordOf(diagnoseScenario(buildScenario('ghost-etcd')), GHOST_MACHINE);
    const p = ghost.preflight?.find((x) => x.id === 'remove-finalizers');

    expect(p?.allowed).toBe(true);
    expect(outcome(checkOf(ghost, 'remove-finalizers', 'hostGone'))).toBe('true:likelyHost');
    expect(outcome(checkOf(ghost, 'remove-finalizers', 'infrastructureGone'))).toBe('true:custom');
    expect(outcome(checkOf(ghost, 'remove-finalizers', 'etcdQuorum'))).toBe('true:kept');
    // kubectl output carries no permissions: unjudged, and it does not refuse.
    expect(outcome(checkOf(ghost, 'remove-finalizers', 'mayUpdate'))).toBe('null:unknown');
    // The Node at its address belongs to a machine that is gone: named as the likely host, not a blocker.
    expect(checkOf(ghost, 'remove-finalizers', 'hostGone')?.args).toEqual({
      node: 'dev-k8s-node01', certainty: 'likely', signal: 'address', value: '10.20.1.21'
    });
  });

  it('a machine with no Node and no other record at its host: no Node left', () => {
    expect(outcome(checkOf(stuckRecord(), 'remove-finalizers', 'hostGone'))).toBe('true:noNode');
  });

  it('refuses while the machine\'s own Node has a kubelet that reports, cannot tell from a stale Node, and passes once Kubernetes stopped hearing from it', () => {
    const { now, objects } = objectsOf('etcd-hook');
    const leaving = diagnose(objects, { now }).records.find((r) => r.preflight?.some((p) => p.id === 'remove-finalizers'))!;

    expect(outcome(checkOf(leaving, 'remove-finalizers', 'hostGone'))).toBe('false:alive');
    expect(leaving.preflight?.find((p) => p.id === 'remove-finalizers')?.allowed).toBe(false);
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === leaving.nodeName);

    const readyAs = (fields: Record<string, string>) => {
      node.status.conditions = node.status.conditions.map((c: any) => (c.type === 'Ready' ? { ...c, ...fields } : c));

      return diagnose(objects, { now }).records.find((r) => r.machineName === leaving.machineName)!;
    };
    const ago = (ms: number) => new Date(Date.parse(now) - ms).toISOString().replace(/\.\d+Z$/, 'Z');

    // With nothing changed, kubelet writes its status every 5 min (nodeStatusReportFrequency): still a live host.
    expect(outcome(checkOf(readyAs({ lastHeartbeatTime: ago(5 * 60000 + 10000) }), 'remove-finalizers', 'hostGone'))).toBe('false:alive');
    // Not Ready, from a kubelet that reports: the host runs.
    const networkDown = readyAs({
      status:            'False',
      reason:            'KubeletNotReady',
      lastHeartbeatTime: ago(20000),
      message:           'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
    });

    expect(outcome(checkOf(networkDown, 'remove-finalizers', 'hostGone'))).toBe('false:reporting');
    // Still Ready from a report far older than kubelet leaves it, never marked Unknown, while the kubelet renewed its
    // Lease seconds ago: the host runs, only its status writes fail.
    const oldStatus = readyAs({
      status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: '2020-01-01T00:00:00Z'
    });

    expect(outcome(checkOf(oldStatus, 'remove-finalizers', 'hostGone'))).toBe('false:leaseRenewed');
    expect(checkOf(oldStatus, 'remove-finalizers', 'hostGone')?.args).toEqual({ node: leaving.nodeName, seconds: expect.any(Number) });
    expect(oldStatus.preflight?.find((p) => p.id === 'remove-finalizers')?.allowed).toBe(false);
    // The Lease as old as the status, or none read at all: a stale view, nothing told.
    const lease = objects.find((o) => o.kind === 'Lease' && o.metadata.name === leaving.nodeName);

    lease.spec.renewTime = '2020-01-01T00:00:00.000000Z';
    const stale = readyAs({});

    expect(outcome(checkOf(stale, 'remove-finalizers', 'hostGone'))).toBe('null:stale');
    expect(outcome(checkOf(diagnose(objects.filter((o) => o.kind !== 'Lease'), { now }).records.find((r) => r.machineName === leaving.machineName)!,
      'remove-finalizers', 'hostGone'))).toBe('null:stale');
    expect(stale.preflight?.find((p) => p.id === 'remove-finalizers')?.allowed).toBe(false);
    // What Kubernetes' node lifecycle controller writes once the kubelet stopped renewing its lease.
    const again = readyAs({
      status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: ago(30 * 60000)
    });

    expect(outcome(checkOf(again, 'remove-finalizers', 'hostGone'))).toBe('true:unheard');
    // The etcd member is still held by the cleanup hook: released first.
    expect(outcome(checkOf(again, 'remove-finalizers', 'etcdReleased'))).toBe('false:held');
    const bootstrap = objects.find((o) => o.kind === 'RKEBootstrap' && o.metadata.name === again.objects.bootstrap?.metadata.name);

    bootstrap.metadata.annotations = { ...(bootstrap.metadata.annotations ?? {}), 'rke.cattle.io/etcd-force-remove': 'true' };
    const released = diagnose(objects, { now }).records.find((r) => r.machineName === leaving.machineName)!;

    expect(outcome(checkOf(released, 'remove-finalizers', 'etcdReleased'))).toBe('true:released');
  });

  it('refuses while the infrastructure reports a failed delete (the VM may run), and while the infrastructure machine exists', () => {
    const { now, objects } = objectsOf('infra-delete-failed');
    const failing = recordOf(diagnose(objects, { now }), DELETE_FAILED_MACHINE);

    expect(outcome(preflightOf('remove-finalizers', failing, Date.parse(now), []).checks.find((c) => c.id === 'infrastructureGone'))).toBe('false:deleteFailed');
    const infra = objects.find((o) => o.apiVersion.startsWith('rke-machine.cattle.io/') && o.metadata.name === failing.objects.infraMachine?.metadata.name);

    infra.status = { ready: false, conditions: [] };
    const m = objects.find((o) => o.kind === 'Machine' && o.metadata.name === DELETE_FAILED_MACHINE);

    m.status.conditions = m.status.conditions.filter((c: any) => c.type !== 'InfrastructureReady');
    const exists = recordOf(diagnose(objects, { now }), DELETE_FAILED_MACHINE);

    expect(outcome(preflightOf('remove-finalizers', exists, Date.parse(now), []).checks.find((c) => c.id === 'infrastructureGone'))).toBe('false:exists');
    const gone = diagnose(objects.filter((o) => o !== infra), { now, availability: { infraMachines: 'ok' } });

    expect(outcome(preflightOf('remove-finalizers', recordOf(gone, DELETE_FAILED_MACHINE), Date.parse(now), []).checks.find((c) => c.id === 'infrastructureGone'))).toBe('true:gone');
  });

  it('judges etcd\'s quorum without the member: below a majority of the rest refuses, the last member refuses, a spare member is kept', () => {
    const report = diagnoseScenario(buildScenario('etcd-quorum'));
    const now = Date.parse(report.now);
    const healthyMember = report.records.find((r) => r.roles.includes('etcd') && r.machineName !== CLUSTER_HEALTH_MACHINES.etcdDown)!;
    const down = recordOf(report, CLUSTER_HEALTH_MACHINES.etcdDown);
    const quorum = (r: NodeRecord, siblings: NodeRecord[]) => outcome(preflightOf('remove-finalizers', r, now, siblings).checks.find((c) => c.id === 'etcdQuorum'));

    expect(quorum(healthyMember, report.records)).toBe('false:belowQuorumListed');
    expect(quorum(down, report.records)).toBe('true:keptListed');
    expect(quorum(down, [down])).toBe('false:lastMember');
    const worker = report.records.find((r) => !r.roles.includes('etcd'))!;

    expect(quorum(worker, report.records)).toBe('true:notMember');
  });

  it('counts no member healthy from a stale Ready: a Node whose status is older than a kubelet ever leaves it, never marked Unknown, leaves quorum unjudged', () => {
    const report = diagnoseScenario(buildScenario('etcd-quorum'));
    const now = Date.parse(report.now);
    const down = recordOf(report, CLUSTER_HEALTH_MACHINES.etcdDown);
    const [first, second] = report.records.filter((r) => r.roles.includes('etcd') && r !== down);
    // The last status the kubelet wrote before the controllers stopped: Ready True, 40 minutes old.
    const staleNode = (r: NodeRecord): NodeRecord => {
      const node = JSON.parse(JSON.stringify(r.objects.node));

      node.status.conditions = node.status.conditions.map((c: any) => (c.type === 'Ready' ? { ...c, lastHeartbeatTime: new Date(now - 40 * 60000).toISOString() } : c));

      return { ...r, objects: { ...r.objects, node } };
    };
    const quorum = (action: 'delete-machine' | 'remove-finalizers', siblings: NodeRecord[]) => {
      const c = preflightOf(action, down, now, siblings).checks.find((x) => x.id === 'etcdQuorum');

      return `${ outcome(c) } ${ JSON.stringify(c?.args) }`;
    };
    const withStale = [down, staleNode(first), second];

    expect(quorum('delete-machine', [down, first, second])).toBe('true:kept {"healthy":2,"members":2,"quorum":2}');
    expect(quorum('delete-machine', withStale)).toBe(`null:stale {"member":"${ first.machineName }","node":"${ first.nodeName }","minutes":40}`);
    expect(quorum('remove-finalizers', withStale)).toMatch(/^null:stale /);
    // Unjudged, a safety check refuses the write.
    expect(preflightOf('remove-finalizers', down, now, withStale).allowed).toBe(false);
  });

  it('counts a member the action leaves listed: at four members with one down, a delete (Rancher removes the member first) keeps quorum, the etcd release and the finalizer removal do not', () => {
    const report = diagnoseScenario(buildScenario('etcd-quorum'));
    const now = Date.parse(report.now);
    const etcd = report.records.filter((r) => r.roles.includes('etcd'));
    const healthy = etcd.filter((r) => r.machineName !== CLUSTER_HEALTH_MACHINES.etcdDown);
    // A fourth member, healthy like the others: 4 listed, 1 down.
    const fourth: NodeRecord = {
      ...healthy[1], key: `${ healthy[1].key }-4`, machineName: `${ healthy[1].machineName }-4`
    };
    const siblings = [...report.records, fourth];
    const quorum = (action: 'delete-machine' | 'etcd-force-remove' | 'remove-finalizers') => {
      const c = preflightOf(action, healthy[0], now, siblings).checks.find((x) => x.id === 'etcdQuorum');

      return `${ outcome(c) } ${ JSON.stringify(c?.args) }`;
    };

    expect(etcd).toHaveLength(3);
    expect(quorum('delete-machine')).toBe('true:kept {"healthy":2,"members":3,"quorum":2}');
    expect(quorum('etcd-force-remove')).toBe('false:belowQuorumListed {"healthy":2,"members":4,"quorum":3}');
    expect(quorum('remove-finalizers')).toBe('false:belowQuorumListed {"healthy":2,"members":4,"quorum":3}');
  });

  it('holds the etcd release and the finalizer removal while a machine still joins the cluster through the leaving member, as Rancher\'s own removal does', () => {
    const { now, objects } = objectsOf('etcd-hook');
    const leaving = () => recordOf(diagnose(objects, { now }), LEAVING_ETCD_MACHINE);
    const joinedCheck = (action: string) => {
      const c = checkOf(leaving(), action, 'noneJoined');

      return `${ outcome(c) } ${ c?.args?.joined ?? '' }`.trim();
    };
    const joinedSecret = objects.find((o) => o.kind === 'Secret' && o.metadata.annotations?.['rke.cattle.io/joined-to'] === leaving().objects.planSecret?.metadata.annotations['rke.cattle.io/join-url']);

    expect(joinedCheck('etcd-force-remove')).toBe('false:joined custom-486ced6111a3');
    expect(preflightOf('remove-finalizers', leaving(), Date.parse(now), diagnose(objects, { now }).records).checks.find((c) => c.id === 'noneJoined')?.ok).toBe(false);
    expect(leaving().preflight?.find((p) => p.id === 'etcd-force-remove')?.allowed).toBe(false);
    // The planner gave the worker another server, and it applied that plan.
    const other = objects.find((o) => o.kind === 'Secret' && o !== joinedSecret && o.metadata.annotations?.['rke.cattle.io/join-url'] &&
      o.metadata.annotations['rke.cattle.io/join-url'] !== joinedSecret.metadata.annotations['rke.cattle.io/joined-to']);

    joinedSecret.metadata.annotations['rke.cattle.io/joined-to'] = other.metadata.annotations['rke.cattle.io/join-url'];
    expect(joinedCheck('etcd-force-remove')).toBe('true:none');
    expect(leaving().preflight?.find((p) => p.id === 'etcd-force-remove')?.allowed).toBe(true);
  });

  it('refuses while the cluster agent is disconnected at all, before the finding\'s threshold, and cannot tell without a cluster object', () => {
    const { now, objects } = objectsOf('agent-disconnected');
    const minuteAgo = new Date(Date.parse(now) - 60000).toISOString().replace(/\.\d+Z$/, 'Z');

    for (const o of objects.filter((x) => x.kind === 'Cluster' && x.apiVersion !== 'cluster.x-k8s.io/v1beta1')) {
      o.status.conditions = o.status.conditions.map((c: any) => (c.status === 'False' ? {
        ...c, lastUpdateTime: minuteAgo, lastTransitionTime: minuteAgo
      } : c));
    }
    const fresh = diagnose(objects, { now });
    const machine = fresh.records.find((x) => x.objects.machine)!;

    // Disconnected for a minute: no finding yet, and no write either.
    expect(fresh.clusters[0].findings.map((f) => f.rule)).not.toContain('cluster-agent-disconnected');
    expect(outcome(preflightOf('remove-finalizers', machine, Date.parse(now), fresh.records).checks.find((c) => c.id === 'agentConnected'))).toBe('false:disconnected');
    const unread = diagnose(objects.filter((x) => !(x.kind === 'Cluster' && x.apiVersion !== 'cluster.x-k8s.io/v1beta1')), { now });
    const alone = unread.records.find((x) => x.objects.machine)!;

    expect(outcome(preflightOf('remove-finalizers', alone, Date.parse(now), unread.records).checks.find((c) => c.id === 'agentConnected'))).toBe('null:unknown');
  });

  it.each([
    ['reconciliation-paused', 'notPaused', 'false:cluster'],
    ['agent-disconnected', 'agentConnected', 'false:disconnected'],
    ['ghost-etcd', 'notPaused', 'true:running'],
    ['ghost-etcd', 'agentConnected', 'true:connected'],
  ])('on %s, %s is %s', (scenario, id, expected) => {
    const report = diagnoseScenario(buildScenario(scenario));
    const r = report.records.find((x) => x.objects.machine)!;

    expect(outcome(preflightOf('remove-finalizers', r, Date.parse(report.now), report.records).checks.find((c) => c.id === id))).toBe(expected);
  });

  it('refuses while a health check has marked the machine for remediation by its owner', () => {
    const report = diagnoseScenario(buildScenario('node-signals'));
    const marked = report.records.find((r) => r.objects.machine?.status?.conditions?.some((c: any) => c.type === 'OwnerRemediated' && c.status === 'False'))!;
    const other = report.records.find((r) => r !== marked && r.objects.machine)!;
    const remediation = (r: NodeRecord) => outcome(preflightOf('remove-finalizers', r, Date.parse(report.now), report.records).checks.find((c) => c.id === 'noRemediation'));

    expect(remediation(marked)).toBe('false:pending');
    expect(remediation(other)).toBe('true:none');
  });

  it('says when the owner holds the replacement back, in its words, and still refuses', () => {
    const s = buildScenario('node-signals');
    const objects = JSON.parse(JSON.stringify(s.objects)) as any[];
    const message = 'Waiting because there are already too many remediations in progress (spec.strategy.remediation.maxInFlight is 1)';
    const machine = objects.find((o) => o.kind === 'Machine' && o.status?.conditions?.some((c: any) => c.type === 'OwnerRemediated' && c.status === 'False'));

    // cluster-api MachineSet controller (v1beta2): OwnerRemediated False, reason RemediationDeferred.
    Object.assign(machine.status.conditions.find((c: any) => c.type === 'OwnerRemediated'), { reason: 'RemediationDeferred', message });
    const report = diagnose([...objects, ...Object.values(s.downstream).flat()], { now: s.now });
    const r = report.records.find((x) => x.objects.machine?.metadata?.name === machine.metadata.name)!;
    const c = preflightOf('remove-finalizers', r, Date.parse(report.now), report.records).checks.find((x) => x.id === 'noRemediation');

    expect(c).toMatchObject({
      ok: false, key: 'nodeHealth.preflight.noRemediation.deferred', args: { message }
    });
  });

  it('reads the user\'s permission from Steve\'s links: update allowed, update left out, none at all', () => {
    const { now, objects } = objectsOf('ghost-etcd', 'steve');
    const machine = objects.find((o) => o.type === 'cluster.x-k8s.io.machine' && o.metadata.name === GHOST_MACHINE);
    const may = () => outcome(checkOf(recordOf(diagnose(objects, { now }), GHOST_MACHINE), 'remove-finalizers', 'mayUpdate'));

    expect(may()).toBe('true:allowed');
    delete machine.links.update;
    expect(may()).toBe('false:denied');
    expect(recordOf(diagnose(objects, { now }), GHOST_MACHINE).preflight?.find((p) => p.id === 'remove-finalizers')?.allowed).toBe(false);
  });
});

describe('Rancher\'s Force Delete, offered where the provider refused a delete', () => {
  const forceDelete = (r: NodeRecord, now: string) => preflightOf('force-delete', r, Date.parse(now), []);

  it('on the vCenter whose login fails: offered, the failed delete seen, the server\'s fate left to the user to confirm', () => {
    const { now, objects } = objectsOf('infra-delete-failed');
    const failing = recordOf(diagnose(objects, { now }), DELETE_FAILED_MACHINE);
    const p = failing.preflight?.find((x) => x.id === 'force-delete');

    expect(failing.findings.find((f) => f.rule === 'infrastructure-delete-failed')?.actions).toEqual(['force-delete']);
    expect(p?.allowed).toBe(true);
    expect(p?.checks.map(outcome)).toEqual(['true:reported', 'null:confirm', 'null:unknown']);
    expect(p?.checks.find((c) => c.id === 'serverGone')).toMatchObject({ byUser: true, args: { server: DELETE_FAILED_MACHINE } });
  });

  it('refuses where the infrastructure reports no failed delete, or is gone already', () => {
    const { now, objects } = objectsOf('infra-delete-failed');
    const infra = objects.find((o) => o.apiVersion.startsWith('rke-machine.cattle.io/') && o.metadata.name === DELETE_FAILED_MACHINE);

    infra.status = { ready: false, conditions: [] };
    const quiet = forceDelete(recordOf(diagnose(objects, { now }), DELETE_FAILED_MACHINE), now);

    expect(outcome(quiet.checks[0])).toBe('false:none');
    expect(quiet.allowed).toBe(false);
    const gone = diagnose(objects.filter((o) => o !== infra), { now, availability: { infraMachines: 'ok' } });

    expect(outcome(forceDelete(recordOf(gone, DELETE_FAILED_MACHINE), now).checks[0])).toBe('false:gone');
  });

  it('is no longer offered once the infrastructure machine carries the force annotation', () => {
    const { now, objects } = objectsOf('infra-delete-failed');
    const infra = objects.find((o) => o.apiVersion.startsWith('rke-machine.cattle.io/') && o.metadata.name === DELETE_FAILED_MACHINE);

    infra.metadata.annotations = { ...(infra.metadata.annotations ?? {}), 'provisioning.cattle.io/force-machine-remove': 'true' };
    const forced = recordOf(diagnose(objects, { now }), DELETE_FAILED_MACHINE);

    expect(forced.preflight?.some((p) => p.id === 'force-delete')).toBe(false);
  });
});

describe('deleting a machine so that its pool replaces it', () => {
  const deleteCheck = (r: NodeRecord, now: number, siblings: NodeRecord[], id: string) => outcome(preflightOf('delete-machine', r, now, siblings).checks.find((c) => c.id === id));

  it('is offered where a finding says to delete the machine: a VM that vanished, its pool named', () => {
    const report = diagnoseScenario(buildScenario('windows-node-ref'));
    const vanished = report.records.find((r) => r.findings.some((f) => f.rule === 'infrastructure-missing'))!;
    const p = vanished.preflight?.find((x) => x.id === 'delete-machine');

    expect(p?.allowed).toBe(true);
    expect(p?.checks.find((c) => c.id === 'replacement')).toMatchObject({ ok: true, args: { pool: expect.stringMatching(/win/) } });
    expect(deleteCheck(vanished, Date.parse(report.now), report.records, 'hostGone')).toMatch(/^true:/);
  });

  it('is neither offered nor planned "if the host is gone" where the machine\'s own Node reports Ready', () => {
    const report = diagnoseScenario(buildScenario('drain-stuck'));
    const blocking = report.records.find((r) => r.findings.some((f) => f.rule === 'blocking-cluster-operation'))!;

    expect(blocking.findings.find((f) => f.rule === 'blocking-cluster-operation')?.fix.some((s) => s.act === 'delete-machine')).toBe(false);
    expect(blocking.findings.some((f) => f.actions.includes('delete-machine'))).toBe(false);
    expect(deleteCheck(blocking, Date.parse(report.now), report.records, 'hostGone')).toBe('false:aliveDelete');

    // Once the Node no longer reports (Kubernetes marks it Unknown), deleting the machine "if the host is gone" is a step again.
    const { now, objects } = objectsOf('drain-stuck');
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === blocking.nodeName);

    Object.assign(node.status.conditions.find((c: any) => c.type === 'Ready'), {
      status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.'
    });
    const unheard = recordOf(diagnose(objects, { now }), blocking.machineName as string);

    expect(unheard.findings.find((f) => f.rule === 'blocking-cluster-operation')?.fix.some((s) => s.act === 'delete-machine')).toBe(true);

    // A kubelet that still writes its status, Ready False: its host runs, as the delete's own check says.
    const reporting = objectsOf('drain-stuck');
    const beat = new Date(Date.parse(reporting.now) - 60000).toISOString();

    Object.assign(reporting.objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === blocking.nodeName).status.conditions.find((c: any) => c.type === 'Ready'), {
      status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy: pleg has yet to be successful', lastHeartbeatTime: beat
    });
    const notReady = recordOf(diagnose(reporting.objects, { now: reporting.now }), blocking.machineName as string);

    expect(notReady.findings.find((f) => f.rule === 'blocking-cluster-operation')?.fix.some((s) => s.act === 'delete-machine')).toBe(false);
    expect(deleteCheck(notReady, Date.parse(reporting.now), [], 'hostGone')).toBe('false:reportingDelete');
  });

  it('refuses a machine already deleting, and says a custom host is not replaced', () => {
    const ghost = recordOf(diagnoseScenario(buildScenario('ghost-etcd')), GHOST_MACHINE);

    expect(deleteCheck(ghost, Date.now(), [], 'notDeleting')).toBe('false:deleting');
    // Its words say that nothing replaces it: no pool waits for it to be gone.
    expect(preflightOf('delete-machine', ghost, Date.now(), []).checks.find((c) => c.id === 'notDeleting')?.args).toMatchObject({ custom: 'yes' });
    expect(deleteCheck({ ...ghost, deleting: null }, Date.now(), [], 'notDeleting')).toBe('true:running');
    expect(deleteCheck(ghost, Date.now(), [], 'replacement')).toBe('true:custom');
  });

  it('never the last control-plane or etcd machine, as Rancher\'s Scale Down keeps one', () => {
    const report = diagnoseScenario(buildScenario('control-plane-down'));
    const now = Date.parse(report.now);
    const cp = recordOf(report, CLUSTER_HEALTH_MACHINES.controlPlane);
    const worker = report.records.find((r) => r.roles.length === 1 && r.roles[0] === 'worker')!;

    expect(deleteCheck(cp, now, report.records, 'lastOfRole')).toBe('false:last');
    expect(preflightOf('delete-machine', cp, now, report.records).checks.find((c) => c.id === 'lastOfRole')?.args).toEqual({ role: 'controlplane' });
    expect(deleteCheck(cp, now, [...report.records, { ...cp, key: 'another' }], 'lastOfRole')).toBe('true:others');
    expect(deleteCheck(worker, now, report.records, 'lastOfRole')).toBe('true:noSoleRole');
  });

  it('reads whether the user may delete from Steve\'s links.remove', () => {
    const { now, objects } = objectsOf('ghost-etcd', 'steve');
    const machine = objects.find((o) => o.type === 'cluster.x-k8s.io.machine' && o.metadata.name === GHOST_MACHINE);
    const may = () => deleteCheck(recordOf(diagnose(objects, { now }), GHOST_MACHINE), Date.parse(now), [], 'mayDelete');

    machine.links.remove = machine.links.remove ?? 'https://rancher.example.com/v1/x';
    expect(may()).toBe('true:allowed');
    delete machine.links.remove;
    expect(may()).toBe('false:denied');
  });
});

describe('resuming a paused machine', () => {
  it('is offered for a machine annotated cluster.x-k8s.io/paused, and refused once the annotation is gone or while the cluster is paused too', () => {
    const { now, objects } = objectsOf('node-signals');
    const report = diagnose(objects, { now });
    const paused = report.records.find((r) => r.preflight?.some((p) => p.id === 'resume-machine'))!;
    const resume = (r: NodeRecord) => preflightOf('resume-machine', r, Date.parse(now), report.records);

    expect(resume(paused).checks.map(outcome)).toEqual(['true:annotated', 'true:running', 'null:unknown']);
    expect(resume(paused).allowed).toBe(true);
    const machine = { ...paused.objects.machine!, metadata: { ...paused.objects.machine!.metadata, annotations: {} } };

    expect(outcome(resume({ ...paused, objects: { ...paused.objects, machine } }).checks[0])).toBe('false:notAnnotated');
    const pausedCluster = diagnoseScenario(buildScenario('reconciliation-paused'));
    const r = pausedCluster.records.find((x) => x.objects.machine)!;

    expect(outcome(preflightOf('resume-machine', r, Date.parse(pausedCluster.now), pausedCluster.records).checks[1])).toBe('false:clusterToo');
  });
});

describe('the registration command\'s preflight', () => {
  it('fits a custom cluster\'s host, not a node-driver pool\'s machine', () => {
    const ghost = recordOf(diagnoseScenario(buildScenario('ghost-etcd')), GHOST_MACHINE);
    const win = recordOf(diagnoseScenario(buildScenario('windows-node-ref')), WINDOWS_CASE_MACHINE);
    const now = Date.now();

    expect(outcome(preflightOf('re-register', ghost, now, []).checks.find((c) => c.id === 'customCluster'))).toBe('true:custom');
    const pool = preflightOf('re-register', win, now, []);

    expect(outcome(pool.checks.find((c) => c.id === 'customCluster'))).toBe('false:pool');
    expect(pool.allowed).toBe(false);
  });

  it('is not offered at all on a node-driver pool\'s machines, and still is on a custom host', () => {
    const pool = diagnoseScenario(buildScenario('windows-node-ref')).records.filter((r) => r.objects.machine);

    expect(pool.flatMap((r) => r.findings.flatMap((f) => f.actions))).not.toContain('re-register');
    expect(pool.some((r) => r.preflight?.some((p) => p.id === 're-register'))).toBe(false);
    expect(recordOf(diagnoseScenario(buildScenario('ghost-etcd')), GHOST_MACHINE).preflight?.some((p) => p.id === 're-register')).toBe(true);
  });
});

describe('the JSON report', () => {
  it('marks what only the user can confirm, as the dialog asks for it', async() => {
    const { toJsonReport } = await import('@pkg/node-health/report/render');
    const { cliTranslator } = await import('../../../cli/l10n');
    const json = toJsonReport(diagnoseScenario(buildScenario('infra-delete-failed')), cliTranslator('en-us'));
    const force = json.records.find((r) => r.machine === DELETE_FAILED_MACHINE)!.actions.find((a) => a.id === 'force-delete')!;

    expect(force.checks.map((c) => [c.id, c.ok, c.byUser ?? false])).toEqual([['deleteFailed', true, false], ['serverGone', null, true], ['mayUpdate', null, false]]);
    expect(force.checks[1].text).toBe(`Rancher cannot see the provider: confirm in its console that server ${ DELETE_FAILED_MACHINE } no longer exists, or delete it there first.`);
  });

  it('carries each record\'s actions with the checks its dialog shows, in words', async() => {
    const { toJsonReport } = await import('@pkg/node-health/report/render');
    const { cliTranslator } = await import('../../../cli/l10n');
    const json = toJsonReport(diagnoseScenario(buildScenario('ghost-etcd')), cliTranslator('en-us'));
    const ghost = json.records.find((r) => r.machine === GHOST_MACHINE)!;
    const removal = ghost.actions.find((a) => a.id === 'remove-finalizers')!;

    expect(removal.allowed).toBe(true);
    expect(removal.checks.find((c) => c.id === 'hostGone')).toStrictEqual({
      id: 'hostGone', ok: true, text: 'This machine has no Node of its own. Node dev-k8s-node01 is most likely its host (same address 10.20.1.21), but no machine owns that Node: it is the host to register again, not a sign that this machine still runs.'
    });
  });
});
