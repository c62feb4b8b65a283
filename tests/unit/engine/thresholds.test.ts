/**
 * Every time threshold, at its boundary: a rule fires when the wait is exactly the threshold and stays silent one
 * second before; the Windows memory threshold likewise at exactly the minimum and one byte below. A rule that
 * reads a threshold and is missing from the table fails the catalogue check.
 */
import { diagnose, DEFAULT_CONFIG, RULES } from '@pkg/node-health/engine';
import type { EngineConfig, Finding, NodeRecord } from '@pkg/node-health/engine';
import { buildScenario, EVERY_FAILURE_EXPECTED, LEAVING_ETCD_MACHINE } from '../../../scenarios/catalog';
import { clusterObjects, recordName } from './helpers';

const every = buildScenario('every-failure');
const everyObjects = clusterObjects(every, every.clusters[0].mgmtId);
const hook = buildScenario('etcd-hook');
const hookObjects = clusterObjects(hook, hook.clusters[0].mgmtId);

interface Boundary {
  /** the scenario's clock, when not every-failure's */
  now?: string;
  /** the configuration key the rule waits on */
  threshold: keyof EngineConfig;
  /** which record of which scenario shows it */
  objects: unknown[];
  record: string;
  /** the moment the wait is measured from */
  start(r: NodeRecord, f: Finding): string | null;
}

/** A rule shown by the first record a scenario expects it on. */
function inScenario(name: string, rule: string, threshold: keyof EngineConfig, start: Boundary['start']): Boundary {
  const s = buildScenario(name);
  const record = Object.entries(s.expected).find(([, rules]) => rules.includes(rule as never))?.[0];

  if (!record) {
    throw new Error(`${ name } expects no ${ rule }`);
  }

  return {
    threshold, objects: s.clusters.flatMap((c) => clusterObjects(s, c.mgmtId)), record, start, now: s.now
  };
}

const BOUNDARIES: Record<string, Boundary> = {
  'agent-never-checked-in': {
    threshold: 'agentCheckInTimeoutMs', objects: everyObjects, record: 'custom-1e0c8f3a5b21', start: (_r, f) => f.since
  },
  'plan-secret-missing': {
    threshold: 'agentCheckInTimeoutMs', objects: everyObjects, record: 'custom-d3b1e7f5c4a3', start: (r) => r.created
  },
  'waiting-for-node-ref': {
    threshold: 'nodeStartupTimeoutMs', objects: everyObjects, record: 'custom-7a5b1e9c6f87', start: (r) => r.created
  },
  'plan-not-applied': {
    threshold: 'planApplyTimeoutMs', objects: everyObjects, record: 'custom-2b7d4e9c1a32', start: (_r, f) => f.since
  },
  'probes-failing': {
    threshold: 'probeFailureTimeoutMs', objects: everyObjects, record: 'custom-4d2e8b6f3c54', start: (_r, f) => f.since
  },
  'stuck-deleting': {
    threshold: 'stuckDeletingTimeoutMs', objects: everyObjects, record: 'custom-5e3f9c7a4d65', start: (r) => r.deleting
  },
  'etcd-removal-hook-blocked': {
    threshold: 'stuckDeletingTimeoutMs', objects: hookObjects, record: LEAVING_ETCD_MACHINE, start: (r) => r.deleting
  },
  'node-not-ready': {
    threshold: 'nodeNotReadyTimeoutMs', objects: everyObjects, record: 'custom-c2a0d6e4b3f2', start: (_r, f) => f.since
  },
  'cloud-provider-uninitialized': inScenario('cloud-provider-external', 'cloud-provider-uninitialized', 'nodeStartupTimeoutMs', (_r, f) => f.since),
  'provider-id-missing':          inScenario('windows-provider-id', 'provider-id-missing', 'nodeStartupTimeoutMs', (r) => r.created),
  // The Node Ready for the not-ready threshold: in the scenario also the moment the machine is as old as the start-up one.
  'node-not-linked':              inScenario('node-not-linked', 'node-not-linked', 'nodeNotReadyTimeoutMs', (_r, f) => f.since),
  'duplicate-node-name':          inScenario('duplicate-node-name', 'duplicate-node-name', 'nodeStartupTimeoutMs', (r) => r.created),
  'serving-certs-expired':        inScenario('serving-certs', 'serving-certs-expired', 'servingCertLifetimeMs', (r) => r.objects.node?.metadata?.creationTimestamp ?? r.created),
  'kubelet-version-skew':         inScenario('kubelet-skew', 'kubelet-version-skew', 'upgradeTimeoutMs', (_r, f) => f.since),
  'drain-stuck':                  inScenario('drain-stuck', 'drain-stuck', 'drainTimeoutMs', (_r, f) => f.since),
  'node-condition':               inScenario('node-signals', 'node-condition', 'nodeNotReadyTimeoutMs', (_r, f) => f.since),
  'node-taint':                   inScenario('node-signals', 'node-taint', 'nodeNotReadyTimeoutMs', (_r, f) => f.since),
  'node-status-stale':            inScenario('node-signals', 'node-status-stale', 'nodeStatusStaleMs', (_r, f) => f.since),
};

function rulesAt(objects: unknown[], name: string, now: number, config?: Partial<EngineConfig>): { record: NodeRecord, rules: string[] } {
  const record = diagnose(objects, { now, config }).records.find((r) => recordName(r) === name);

  if (!record) {
    throw new Error(`no record ${ name }`);
  }

  return { record, rules: record.findings.map((f) => f.rule) };
}

describe('time thresholds at their boundary', () => {
  it('cover every rule that waits on a configured threshold', () => {
    const waiting = RULES.filter((rule) => /config\.\w+Ms\b/.test(rule.check.toString())).map((rule) => rule.id);

    expect(waiting.length).toBeGreaterThanOrEqual(6);
    expect(waiting.filter((id) => !(id in BOUNDARIES) && !SEVERITY_BOUNDARIES.includes(id))).toStrictEqual([]);
  });

  // Rules that say what goes on before their threshold, as an info, and call it a problem from the threshold on.
  const SEVERITY_BOUNDARIES = ['blocking-cluster-operation'];

  it('blocking-cluster-operation: the planner still waiting on a machine is progress until a plan apply takes longer', () => {
    const name = 'custom-e4c2f8a6d5b4';
    const at = (now: number, config?: Partial<EngineConfig>) => rulesAt(everyObjects, name, now, config).record.findings.find((f) => f.rule === 'blocking-cluster-operation');
    const first = at(Date.parse(every.now));
    const start = Date.parse(first?.since ?? '');

    expect(Number.isNaN(start)).toBe(false);
    const threshold = start + DEFAULT_CONFIG.planApplyTimeoutMs;

    expect(at(threshold)?.severity).toBe('error');
    expect(at(threshold)?.args.progress).toBe('no');
    expect(at(threshold - 1000)?.severity).toBe('info');
    expect(at(threshold - 1000)?.args.progress).toBe('yes');
    // While it is progress, the only step is to watch: nothing is deferred to this machine and no deletion is offered.
    expect(at(threshold - 1000)?.fix.map((s) => s.key)).toStrictEqual(['nodeHealth.rules.blockingClusterOperation.fix.watchCluster']);
    expect(at(threshold, { planApplyTimeoutMs: DEFAULT_CONFIG.planApplyTimeoutMs + 60000 })?.severity).toBe('info');
  });

  it('blocking-cluster-operation: the cluster\'s plan asks to settle a machine only once it holds the cluster back', () => {
    const plan = (now: number) => diagnose(everyObjects, { now }).clusters[0].resolution!;
    const since = rulesAt(everyObjects, 'custom-e4c2f8a6d5b4', Date.parse(every.now)).record.findings.find((f) => f.rule === 'blocking-cluster-operation')!.since!;
    const threshold = Date.parse(since) + DEFAULT_CONFIG.planApplyTimeoutMs;
    const settles = (now: number) => plan(now).steps.filter((s) => s.key === 'nodeHealth.plan.settleFirst').map((s) => s.args?.machine);

    expect(settles(threshold)).toContain('custom-e4c2f8a6d5b4');
    expect(settles(threshold - 1000)).not.toContain('custom-e4c2f8a6d5b4');
  });

  it('blocking-cluster-operation: an error the planner stopped on (False) holds the cluster back at once', () => {
    const objects = JSON.parse(JSON.stringify(everyObjects)) as any[];
    const cluster = objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));
    const updated = cluster.status.conditions.find((c: any) => c.type === 'Updated');
    const since = Date.parse(updated.lastTransitionTime ?? updated.lastUpdateTime);

    for (const c of cluster.status.conditions.filter((x: any) => ['Updated', 'Provisioned'].includes(x.type))) {
      Object.assign(c, { status: 'False', reason: 'Error' });
    }
    const found = rulesAt(objects, 'custom-e4c2f8a6d5b4', since + 1000).record.findings.find((f) => f.rule === 'blocking-cluster-operation');

    expect(found).toMatchObject({ severity: 'error', args: { progress: 'no', failed: 'yes' } });
    expect(found?.evidence.find((e) => e.path.endsWith('].status'))?.value).toBe('False');
  });

  it.each(Object.entries(BOUNDARIES))('%s fires at exactly the threshold, not one second before', (id, b) => {
    const seen = rulesAt(b.objects, b.record, Date.parse(b.now ?? (b.objects === hookObjects ? hook.now : every.now)));
    const finding = seen.record.findings.find((f) => f.rule === id);

    expect(finding).toBeDefined();
    const start = Date.parse(b.start(seen.record, finding!) ?? '');

    expect(Number.isNaN(start)).toBe(false);
    const at = start + DEFAULT_CONFIG[b.threshold];

    expect(rulesAt(b.objects, b.record, at).rules).toContain(id);
    expect(rulesAt(b.objects, b.record, at - 1000).rules).not.toContain(id);
    // The threshold is the configured one, not a constant: a minute longer moves the boundary with it.
    expect(rulesAt(b.objects, b.record, at, { [b.threshold]: DEFAULT_CONFIG[b.threshold] + 60000 }).rules).not.toContain(id);
  });

  it('the finalizer cleanup is offered from exactly the stuck threshold, not one second before', () => {
    const b = BOUNDARIES['stuck-deleting'];
    const { record } = rulesAt(b.objects, b.record, Date.parse(every.now));
    const at = Date.parse(record.deleting!) + DEFAULT_CONFIG.stuckDeletingTimeoutMs;
    const actions = (now: number) => rulesAt(b.objects, b.record, now).record.findings.flatMap((f) => f.actions);

    expect(actions(at)).toContain('remove-finalizers');
    expect(actions(at - 1000)).not.toContain('remove-finalizers');
  });
});

describe('the Windows memory threshold at its boundary', () => {
  const name = Object.entries(EVERY_FAILURE_EXPECTED).find(([, family]) => family === 'windows-memory-low')![0];
  const withMemory = (bytes: number) => {
    const objects = JSON.parse(JSON.stringify(everyObjects)) as any[];
    const nodeName = objects.find((o) => o.kind === 'Machine' && o.metadata.name === name).status.nodeRef.name;

    objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === nodeName).status.capacity.memory = String(bytes);

    return rulesAt(objects, name, Date.parse(every.now)).rules;
  };

  it('a node with exactly the minimum is fine, one byte less is not', () => {
    expect(withMemory(DEFAULT_CONFIG.windowsMinMemoryBytes)).not.toContain('windows-memory-low');
    expect(withMemory(DEFAULT_CONFIG.windowsMinMemoryBytes - 1)).toContain('windows-memory-low');
  });
});
