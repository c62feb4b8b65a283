/**
 * The planner stopped on an error (rancher pkg/controllers/capr/planner OnChange writes it to the RKEControlPlane's
 * Ready as False/Error, and the provisioning cluster copies that to Updated): one cluster finding with the planner's
 * words, its own steps where the error has some, never for a write lost to another controller, and not before the
 * error outlasts a plan apply. The planner's progress is not an error: a machine it names in time is being configured.
 */
import { diagnose, DEFAULT_CONFIG } from '@pkg/node-health/engine';
import type { Finding } from '@pkg/node-health/engine';
import { buildScenario, PLANNER_STOPS } from '../../../scenarios/catalog';
import { clusterObjects, diagnoseScenario } from './helpers';

function plannerError(name: string): Finding | undefined {
  return diagnoseScenario(buildScenario(name as never)).clusters[0].findings.find((f) => f.rule === 'planner-error');
}

/** The files scenario's objects with its cluster's Updated (and Provisioned) saying this, for `since` ago. */
function saying(message: string, status: 'False' | 'Unknown', sinceMs: number, reason = status === 'False' ? 'Error' : 'Waiting') {
  const s = buildScenario('planner-files');
  const objects = JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) as any[];
  const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));
  const since = new Date(Date.parse(s.now) - sinceMs).toISOString().replace(/\.\d{3}Z$/, 'Z');

  cluster.status.conditions = cluster.status.conditions.map((c: any) => (['Updated', 'Provisioned'].includes(c.type) ? {
    ...c, status, reason, message, lastUpdateTime: since, lastTransitionTime: since
  } : c));

  return diagnose(objects, { now: s.now, defaultCluster: s.clusters[0].mgmtId }).clusters[0];
}

const HOUR = 3600000;

describe("the planner's errors", () => {
  it.each([
    ['planner-kdm', 'kdm', ['kdmSetting', 'kdmVersion']],
    ['planner-files', 'files', ['filesFix', 'filesAuthorize']],
    ['planner-init-nodes', 'initNodes', ['initNodes', 'initNodesSupport']],
    ['planner-join-url', 'joinUrl', ['joinUrl']],
  ])('%s: one cluster error of kind %s, with its own steps before the log and the retry', (name, kind, own) => {
    const found = plannerError(name)!;

    expect(found).toMatchObject({ severity: 'error', args: { kind } });
    expect(found.fix.map((s) => s.key.replace('nodeHealth.rules.plannerError.fix.', ''))).toStrictEqual([...own, 'rancherLog', 'retries']);
    expect(found.evidence.map((e) => e.value)).toContain(PLANNER_STOPS[kind as keyof typeof PLANNER_STOPS]);
  });

  it('leads the cluster\'s plan, and tells on no machine', () => {
    const report = diagnoseScenario(buildScenario('planner-files'));

    expect(report.clusters[0].resolution?.rootCause).toBe('planner-error');
    expect(report.records.every((r) => r.status === 'healthy')).toBe(true);
  });

  it('points the machines the error is about to it: those marked as the init node, the worker it cannot join', () => {
    const noted = (name: string) => diagnoseScenario(buildScenario(name as never)).records
      .filter((r) => r.notes.some((n) => n.key === 'nodeHealth.notes.partOf.plannerError')).map((r) => r.nodeName).sort();

    expect(noted('planner-init-nodes')).toStrictEqual(['ps-init-cp-01', 'ps-init-cp-02']);
    expect(noted('planner-join-url')).toStrictEqual(['ps-join-wk-01']);
    expect(noted('planner-files')).toStrictEqual([]);
  });

  it('names the object a file comes from, quoted for the shell, and the version release data is missing for', () => {
    const files = plannerError('planner-files')!;

    expect(files.fix[0]).toMatchObject({ args: { object: 'secret fleet-default/registry-ca' } });
    expect(files.fix[0].command).toBe("kubectl -n fleet-default get secret -o jsonpath='{.metadata.annotations}' -- registry-ca");
    const odd = saying('error rendering files: cluster fleet-default/ps-files was not authorized to access configmap fleet-default/x;reboot', 'False', HOUR)
      .findings.find((f) => f.rule === 'planner-error')!;

    expect(odd.fix[0].command).toBe("kubectl -n fleet-default get configmap -o jsonpath='{.metadata.annotations}' -- 'x;reboot'");
    expect(plannerError('planner-kdm')!.args.version).toBe('v1.31.5+rke2r1');
  });

  it('cites any other error as the planner wrote it, with the log and the retry', () => {
    const message = 'rkecluster fleet-default/ps-files: error semver parsing kubernetes version v1.31: Invalid Semantic Version';
    const found = saying(message, 'False', HOUR).findings.find((f) => f.rule === 'planner-error')!;

    expect(found.args.kind).toBe('other');
    expect(found.fix.map((s) => s.key)).toStrictEqual(['readMessage', 'rancherLog', 'retries'].map((k) => `nodeHealth.rules.plannerError.fix.${ k }`));
    expect(found.evidence.map((e) => e.value)).toContain(message);
  });

  it('waits a plan apply before calling an error the planner\'s stop: it retries at once', () => {
    const at = (ms: number) => saying(PLANNER_STOPS.initNodes, 'False', ms).findings.some((f) => f.rule === 'planner-error');

    expect(at(DEFAULT_CONFIG.planApplyTimeoutMs)).toBe(true);
    expect(at(DEFAULT_CONFIG.planApplyTimeoutMs - 1000)).toBe(false);
  });

  it('never makes a finding of a write lost to another controller, however long ago (rancher#50065)', () => {
    const conflict = 'Operation cannot be fulfilled on machines.cluster.x-k8s.io "custom-8a2f": the object has been modified; please apply your changes to the latest version and try again';

    expect(saying(conflict, 'False', 5 * HOUR).findings.map((f) => f.rule)).not.toContain('planner-error');
  });

  it('leaves the planner\'s waits and the messages other rules read to them', () => {
    // A wait is progress, but release data missing, which no pass of the planner ends.
    expect(saying('waiting for etcd snapshot on node ps-files-cp-01', 'Unknown', 5 * HOUR).findings.map((f) => f.rule)).not.toContain('planner-error');
    expect(saying(PLANNER_STOPS.kdm, 'Unknown', 5 * HOUR).findings.map((f) => f.rule)).toContain('planner-error');
    // An error another rule reads is that rule's: the init node lost, a failed rotation.
    for (const message of [
      'init node not found', 'operation [custom-8a2f] certificate rotation failed', 'operation etcd restore failed',
      'encryption key rotation failed, please perform an etcd restore: operation encryption key rotation [prepare] for machine [custom-8a2f] failed',
      'error draining machine custom-8a2f: cannot evict pod as it would violate the pod\'s disruption budget',
    ]) {
      expect(saying(message, 'False', 5 * HOUR).findings.map((f) => f.rule)).not.toContain('planner-error');
    }
    // Not False/Error: another controller's words, not the planner's error.
    expect(saying('something else', 'False', 5 * HOUR, 'Unavailable').findings.map((f) => f.rule)).not.toContain('planner-error');
  });
});
