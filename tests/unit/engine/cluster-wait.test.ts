/**
 * The cluster's net: Rancher says for hours that a cluster waits, and nothing of the cluster explains it. Harvester's
 * own cluster whose second node never joins (harvester#1993): "waiting for join url to be available on bootstrap
 * node" for three hours while its only node runs. Before this net the tab called such a cluster healthy.
 */
import { diagnose } from '@pkg/node-health/engine';
import type { DiagnosisReport } from '@pkg/node-health/engine';
import { buildScenario } from '../../../scenarios/catalog';
import { clusterObjects, diagnoseScenario } from './helpers';

const JOIN_URL_WAIT = 'waiting for join url to be available on bootstrap node';

function clusterFinding(report: DiagnosisReport, rule = 'unexplained-cluster-wait') {
  return report.clusters[0].findings.find((f) => f.rule === rule);
}

/** The healthy scenario's cluster, saying on Updated what Rancher waits for, since the time given. */
function healthySaying(message: string, since: string | null, status = 'Unknown'): DiagnosisReport {
  const s = buildScenario('healthy');
  const objects = JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) as any[];
  const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

  cluster.status.conditions = cluster.status.conditions.filter((c: any) => c.type !== 'Updated').concat({
    type: 'Updated', status, reason: 'Waiting', message, ...(since ? { lastUpdateTime: since } : {})
  });

  return diagnose(objects, { now: s.now });
}

describe('a cluster Rancher says waits, with nothing else to show why (harvester#1993)', () => {
  const report = diagnoseScenario(buildScenario('join-url-wait'));
  const finding = clusterFinding(report);

  it('is a warning about the cluster, in Rancher\'s words and since when, with the init node\'s missing join URL', () => {
    expect(finding).toMatchObject({
      severity: 'warning',
      since:    '2022-03-10T05:37:29Z',
      args:     {
        cluster: 'local', condition: 'Updated', known: 'joinUrl', found: 'no', nodes: 1, unknown: 0, timed: 'yes', duration: (3 * 3600 + 2 * 60 + 23) * 1000
      },
    });
    expect(finding?.evidence).toEqual(expect.arrayContaining([
      expect.objectContaining({
        object: 'Cluster fleet-local/local', path: 'status.conditions[Updated].message', value: JOIN_URL_WAIT
      }),
      expect.objectContaining({ path: 'metadata.annotations[rke.cattle.io/join-url]', value: null }),
    ]));
  });

  it('says where the join URL comes from first, then Rancher\'s conditions and the planner\'s lines of its log', () => {
    expect(finding?.fix.map((s) => s.key.replace('nodeHealth.rules.unexplainedClusterWait.fix.', ''))).toEqual(['initNodeJoinUrl', 'conditions', 'rancherLog', 'report']);
    expect(finding?.fix[0].command).toContain('get secrets -l rke.cattle.io/init-node=true --field-selector type=rke.cattle.io/machine-plan');
    // The thread's own log line: "[planner] rkecluster fleet-local/local: waiting: waiting for join url …"
    expect(finding?.fix[2].command).toContain("grep -F '[planner] rkecluster fleet-local/local:'");
    expect(report.clusters[0].resolution?.rootCause).toBe('unexplained-cluster-wait');
  });

  it('leaves its node healthy: the wait is the cluster\'s, not the node\'s', () => {
    expect(report.records.map((r) => r.status)).toEqual(['healthy']);
  });

  it('says nothing while the wait is younger than an upgrade of one node may take', () => {
    // Twenty minutes after Rancher began to say so.
    const young = diagnoseScenario(buildScenario('join-url-wait'), 'kubectl', { now: '2022-03-10T05:57:29Z' });

    expect(clusterFinding(young)).toBeUndefined();
  });
});

describe('the cluster\'s net', () => {
  const longAgo = '2026-01-01T00:00:00Z';

  it('says when the join URL Rancher waits for is on the plan secret read here, so that the planner reads otherwise', () => {
    const found = clusterFinding(healthySaying(JOIN_URL_WAIT, longAgo));

    expect(found?.args).toMatchObject({ known: 'joinUrl', found: 'yes' });
    // Its first step does not ask to check for a URL the evidence shows.
    expect(found?.fix[0]).toMatchObject({ key: 'nodeHealth.rules.unexplainedClusterWait.fix.initNodeJoinUrl', args: { found: 'yes' } });
    expect(clusterFinding(healthySaying('waiting for control plane to be available', longAgo))?.args).toMatchObject({ known: 'controlPlane', found: 'yes' });
  });

  it('counts the nodes whose health is not known, which may be what Rancher waits for', () => {
    const s = buildScenario('healthy');
    const objects = JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) as any[];
    const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1');

    cluster.status.conditions = cluster.status.conditions.filter((c: any) => c.type !== 'Updated').concat({
      type: 'Updated', status: 'Unknown', reason: 'Waiting', message: 'waiting for something new', lastUpdateTime: longAgo
    });
    // A Node without any status cannot be judged (a note says so): unknown, not healthy.
    delete node.status;
    const report = diagnose(objects, { now: s.now });

    expect(report.records.filter((r) => r.status === 'unknown')).toHaveLength(1);
    expect(clusterFinding(report)?.args).toMatchObject({ nodes: 5, unknown: 1 });
  });

  it('reads words no rule knows', () => {
    expect(clusterFinding(healthySaying('waiting for something new', longAgo))?.args).toMatchObject({ known: 'no', reader: '-' });
  });

  it('names the rule whose words Rancher says when that rule finds nothing in the objects (rancher#53343: every role registered)', () => {
    const report = healthySaying('waiting for at least one control plane, etcd, and worker node to be registered', longAgo);

    expect(clusterFinding(report, 'role-missing')).toBeUndefined();
    expect(clusterFinding(report)?.args).toMatchObject({ known: 'reader', reader: 'role-missing' });
  });

  it('gives way to a finding about the cluster that reads the same words', () => {
    const report = healthySaying('waiting for viable init node', longAgo);

    expect(report.clusters[0].findings.map((f) => f.rule)).toEqual(['init-node-not-viable']);
  });

  it('gives way to the nodes\' own findings, which are what the cluster waits for (rancher#50065: the cloud provider never initialised them)', () => {
    const report = diagnoseScenario(buildScenario('cloud-provider-external'));

    expect(report.clusters[0].blockingMessage).toBe('waiting for control plane to be available');
    expect(report.records.some((r) => r.status === 'error')).toBe(true);
    expect(clusterFinding(report)).toBeUndefined();
  });

  it('passes over the API server\'s refusal of a stale write, which the planner gets past on its next pass', () => {
    expect(clusterFinding(healthySaying('Operation cannot be fulfilled on rkecontrolplanes.rke.cattle.io "demo-rke2": the object has been modified; please apply your changes to the latest version and try again', longAgo))).toBeUndefined();
  });

  it('counts a wait Rancher wrote without a time, and a True condition never', () => {
    expect(clusterFinding(healthySaying('waiting for something new', null))).toMatchObject({ since: null, args: { timed: 'no' } });
    expect(clusterFinding(healthySaying('waiting for something new', longAgo, 'True'))).toBeUndefined();
  });
});
