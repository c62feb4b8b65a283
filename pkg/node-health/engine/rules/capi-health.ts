/**
 * Findings that Cluster API's own objects of a cluster show: reconciliation left paused (the CAPI Cluster, a
 * pool, a health check, or as the planner says it), and a MachineHealthCheck that found unhealthy machines but
 * may not replace them because too many are unhealthy (cluster-api core/reconcilers/machinehealthcheck: its
 * RemediationAllowed condition, reason TooManyUnhealthy; the limit is maxUnhealthy or unhealthyRange in v1beta1,
 * remediation.triggerIf in v1beta2; Rancher writes it from a machine pool's Auto Replace settings).
 */
import type { Evidence, KubeObject, NodeRecord, Severity } from '../types';
import type { Condition } from '../conditions';
import { conditions, findUnhealthyCondition, getCondition } from '../conditions';
import {
  annotation, asArray, asNumber, asObject, asString, describeObject, label, nameOf, namespaceOf, specOf, statusOf
} from '../fields';
import { ANNOTATIONS, LABELS } from '../vocabulary';
import {
  ENCRYPTION_KEY_ROTATION, ENCRYPTION_KEY_ROTATION_FAILED, ETCD_RESTORE, ETCD_RESTORE_FAILED, RECONCILIATION_PAUSED
} from '../signals/planner';
import type { ClusterRule, ClusterRuleInput } from './rule';
import {
  age, conditionEvidence, duration, evidence, objectLabel, sh, step
} from './rule';

const CAPI_LABELS = {
  capiCluster:        'CAPI Cluster',
  machineDeployment:  'MachineDeployment',
  machineSet:         'MachineSet',
  machineHealthCheck: 'MachineHealthCheck',
} as const;

const RESOURCES = {
  capiCluster:        'clusters.cluster.x-k8s.io',
  machineDeployment:  'machinedeployments.cluster.x-k8s.io',
  machineSet:         'machinesets.cluster.x-k8s.io',
  machineHealthCheck: 'machinehealthchecks.cluster.x-k8s.io',
} as const;

type CapiKind = keyof typeof CAPI_LABELS;

function capiLabel(kind: CapiKind, obj: KubeObject): string {
  return describeObject(CAPI_LABELS[kind], obj);
}

/** One object that pauses reconciliation, and how. */
interface Pause {
  kind: CapiKind;
  obj: KubeObject;
  how: 'spec' | 'annotation';
}

function pausesOf(kind: CapiKind, obj: KubeObject): Pause[] {
  const out: Pause[] = [];

  // A MachineDeployment's spec.paused stops its rollouts; a CAPI Cluster's stops everything under it.
  if ((kind === 'capiCluster' || kind === 'machineDeployment') && specOf(obj).paused === true) {
    out.push({
      kind, obj, how: 'spec'
    });
  }
  if (annotation(obj, ANNOTATIONS.capiPaused) !== null) {
    out.push({
      kind, obj, how: 'annotation'
    });
  }

  return out;
}

function pauses(input: ClusterRuleInput): Pause[] {
  const capi = input.capi;

  return [
    ...(capi.cluster ? pausesOf('capiCluster', capi.cluster) : []),
    ...capi.deployments.flatMap((o) => pausesOf('machineDeployment', o)),
    ...capi.sets.flatMap((o) => pausesOf('machineSet', o)),
    ...capi.healthChecks.flatMap((o) => pausesOf('machineHealthCheck', o)),
  ];
}

function pauseEvidence(p: Pause): Evidence {
  return p.how === 'spec' ? evidence(capiLabel(p.kind, p.obj), 'spec.paused', true) : evidence(capiLabel(p.kind, p.obj), `metadata.annotations[${ ANNOTATIONS.capiPaused }]`, annotation(p.obj, ANNOTATIONS.capiPaused));
}

/**
 * The operation Rancher paused the CAPI cluster for itself, by what its provisioning cluster's conditions say: a
 * certificate rotation, an etcd snapshot restore or an encryption key rotation, running or failed. The planner keeps
 * that pause until the operation is done, and pauses again after a resume by hand; a failed rotation is its machine's
 * error (blocking-cluster-operation), a failed restore or key rotation the cluster's.
 */
function rancherOperation(input: ClusterRuleInput): { scope: string; severity: Severity; said: Condition } | null {
  const { certificateRotation, blockingCondition } = input.cluster;
  const rotation = certificateRotation && blockingCondition && input.provisioning ? getCondition(input.provisioning, blockingCondition) : null;

  if (rotation) {
    return {
      scope: 'rotation', severity: 'info', said: rotation
    };
  }
  for (const c of input.provisioning ? conditions(input.provisioning) : []) {
    const message = c.status !== 'True' ? c.message ?? '' : '';

    if (ENCRYPTION_KEY_ROTATION.test(message)) {
      return ENCRYPTION_KEY_ROTATION_FAILED.test(message) ? {
        scope: 'encryptionFailed', severity: 'error', said: c
      } : {
        scope: 'encryption', severity: 'info', said: c
      };
    }
    if (ETCD_RESTORE.test(message)) {
      return ETCD_RESTORE_FAILED.test(message) ? {
        scope: 'restoreFailed', severity: 'error', said: c
      } : {
        scope: 'restore', severity: 'info', said: c
      };
    }
  }

  return null;
}

function resumeStep(ruleId: string, p: Pause) {
  const ns = namespaceOf(p.obj);
  const name = nameOf(p.obj);
  const what = `${ CAPI_LABELS[p.kind] } ${ name ?? '?' }`;

  if (p.how === 'spec') {
    return step(ruleId, p.kind === 'capiCluster' ? 'resume' : 'resumeRollout', { object: what }, `kubectl -n ${ sh(ns) } patch ${ RESOURCES[p.kind] } ${ sh(name) } --type=merge -p '{"spec":{"paused":false}}'`);
  }

  return step(ruleId, 'resumeAnnotation', { object: what }, `kubectl -n ${ sh(ns) } annotate ${ RESOURCES[p.kind] } ${ sh(name) } ${ ANNOTATIONS.capiPaused }-`);
}

/** The v1beta2 Paused condition of a CAPI Cluster: since when it is paused. */
function pausedSince(capiCluster: KubeObject | undefined): string | null {
  if (!capiCluster) {
    return null;
  }
  const c = conditions(capiCluster).find((x) => x.type === 'Paused' && x.status === 'True');

  return c?.lastTransitionTime ?? null;
}

export const reconciliationPaused: ClusterRule = {
  id:       'reconciliation-paused',
  severity: 'warning',
  // The machines of a paused pool: theirs is the pool's pause.
  related(input) {
    const pools = new Set(pauses(input).filter((p) => p.kind === 'machineDeployment').map((p) => nameOf(p.obj)));

    return pools.size ? input.records.filter((r) => !!r.objects.machine && pools.has(label(r.objects.machine, LABELS.deploymentName))) : [];
  },
  check(input, ctx) {
    const said: Condition | undefined = input.provisioning ? conditions(input.provisioning).find((c) => c.status !== 'True' && RECONCILIATION_PAUSED.test(c.message ?? '')) : undefined;
    const found = pauses(input);

    if (!said && found.length === 0) {
      return null;
    }
    const since = said?.lastTransitionTime ?? pausedSince(input.capi.cluster);
    const ns = input.cluster.namespace;
    const name = input.cluster.name;
    const objects = found.length ? found.map((p) => `${ CAPI_LABELS[p.kind] } ${ nameOf(p.obj) ?? '?' } (${ p.how === 'spec' ? 'spec.paused' : ANNOTATIONS.capiPaused })`).join(', ') : 'CAPI Cluster / RKEControlPlane';
    // A pause of a pool or a health check only holds back that pool; the cluster's holds back everything.
    const whole = !!said || found.some((p) => p.kind === 'capiCluster');
    // Rancher's own pause (a rotation, a restore) is the CAPI Cluster's spec.paused alone; resuming it by hand would let
    // Cluster API act in the middle of the operation: what to do is the operation's.
    const operation = found.every((p) => p.kind === 'capiCluster' && p.how === 'spec') ? rancherOperation(input) : null;

    if (operation) {
      return {
        severity: operation.severity,
        args:     {
          cluster: name, duration: since ? duration(age(ctx, since)) : '?', timed: since ? 'yes' : 'no', objects, scope: operation.scope
        },
        evidence: [...found.map(pauseEvidence), ...conditionEvidence(objectLabel('cluster', input.provisioning as KubeObject), operation.said)],
        fix:      [step(this.id, operation.scope, { cluster: name })],
        since,
        actions:  [],
      };
    }

    return {
      args: {
        cluster: name, duration: since ? duration(age(ctx, since)) : '?', timed: since ? 'yes' : 'no', objects, scope: whole ? 'cluster' : 'pool'
      },
      evidence: [
        ...(said && input.provisioning ? conditionEvidence(objectLabel('cluster', input.provisioning), said) : []),
        ...found.map(pauseEvidence),
      ],
      fix: [
        step(this.id, 'who', {}, ns ? `kubectl -n ${ sh(ns) } get clusters.cluster.x-k8s.io,rkecontrolplanes.rke.cattle.io,machinedeployments.cluster.x-k8s.io,machinesets.cluster.x-k8s.io,machinehealthchecks.cluster.x-k8s.io -l cluster.x-k8s.io/cluster-name=${ sh(name) } -o yaml | grep -n -i paused` : undefined),
        step(this.id, 'operation'),
        ...(found.length ? found.map((p) => resumeStep(this.id, p)) : [
          step(this.id, 'resume', { object: `CAPI Cluster ${ name }` }, ns ? `kubectl -n ${ sh(ns) } patch clusters.cluster.x-k8s.io ${ sh(name) } --type=merge -p '{"spec":{"paused":false}}'` : undefined),
          step(this.id, 'resumeAnnotation', { object: `CAPI Cluster ${ name }` }, ns ? `kubectl -n ${ sh(ns) } annotate clusters.cluster.x-k8s.io,rkecontrolplanes.rke.cattle.io ${ sh(name) } ${ ANNOTATIONS.capiPaused }-` : undefined),
        ]),
      ],
      since,
      actions: [],
    };
  },
};

/** Go's intstr.GetScaledValueFromIntOrPercent, rounding down as the health check does; null when it is neither. */
export function scaledLimit(value: unknown, total: number): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) {
    return value;
  }
  const s = asString(value);
  const percent = s ? /^(\d+)%$/.exec(s) : null;

  if (percent) {
    return Math.floor((Number(percent[1]) * total) / 100);
  }
  if (s && /^\d+$/.test(s)) {
    return Number(s);
  }

  return null;
}

/** "[3-5]", as unhealthyRange / unhealthyInRange are written. */
export function parseRange(value: unknown): { min: number; max: number } | null {
  const m = /^\[(\d+)-(\d+)\]$/.exec(asString(value)?.trim() ?? '');

  return m && Number(m[1]) <= Number(m[2]) ? { min: Number(m[1]), max: Number(m[2]) } : null;
}

/** What a health check's spec says it may remediate, v1beta2's remediation.triggerIf before v1beta1's fields. */
function limitOf(mhc: KubeObject): { path: string; value: string | number; range: boolean } {
  const spec = specOf(mhc);
  const triggerIf = asObject(asObject(spec.remediation).triggerIf);
  const candidates: [string, unknown, boolean][] = [
    ['spec.remediation.triggerIf.unhealthyInRange', triggerIf.unhealthyInRange, true],
    ['spec.remediation.triggerIf.unhealthyLessThanOrEqualTo', triggerIf.unhealthyLessThanOrEqualTo, false],
    ['spec.unhealthyRange', spec.unhealthyRange, true],
    ['spec.maxUnhealthy', spec.maxUnhealthy, false],
  ];

  for (const [path, value, range] of candidates) {
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') {
      return {
        path, value, range
      };
    }
  }

  // Cluster API's default: every machine may be remediated.
  return {
    path: 'spec.maxUnhealthy', value: '100%', range: false
  };
}

/** How long a Node may stay not Ready before the check calls it unhealthy (Rancher's Auto Replace), as written. */
function unhealthyTimeout(mhc: KubeObject): string | null {
  const spec = specOf(mhc);
  const v1beta1 = asArray(spec.unhealthyConditions).map((c) => asString(asObject(c).timeout)).find((t) => !!t);

  if (v1beta1) {
    return v1beta1;
  }
  const seconds = asArray(asObject(spec.checks).unhealthyNodeConditions).map((c) => asNumber(asObject(c).timeoutSeconds)).find((t) => t !== null && t !== undefined);

  return seconds === null || seconds === undefined ? null : `${ seconds }s`;
}

interface Blocked {
  mhc: KubeObject;
  said: Condition | null;
  total: number | null;
  unhealthy: number | null;
  limit: { path: string; value: string | number; range: boolean };
}

/** Whether the health check may not remediate: its own condition, else its counts against its limit. */
function blocked(mhc: KubeObject): Blocked | null {
  const status = statusOf(mhc);
  const total = asNumber(status.expectedMachines);
  const healthy = asNumber(status.currentHealthy);
  const unhealthy = total !== null && healthy !== null ? Math.max(0, total - healthy) : null;
  const limit = limitOf(mhc);
  const condition = getCondition(mhc, 'RemediationAllowed');

  if (condition) {
    // The check's own verdict, when it wrote one: True means it may remediate.
    return condition.status === 'False' ? {
      mhc, said: condition, total, unhealthy, limit
    } : null;
  }
  if (total === null || unhealthy === null || unhealthy === 0) {
    return null;
  }
  let allowed: boolean | null;

  if (limit.range) {
    const range = parseRange(limit.value);

    allowed = range ? unhealthy >= range.min && unhealthy <= range.max : null;
  } else {
    const max = scaledLimit(limit.value, total);

    allowed = max === null ? null : unhealthy <= max;
  }

  return allowed === false ? {
    mhc, said: null, total, unhealthy, limit
  } : null;
}

/** The machines a health check targets that it found unhealthy: the ones it would replace if it could. */
function unhealthyTargets(input: ClusterRuleInput, mhc: KubeObject): NodeRecord[] {
  const targets = new Set(asArray(statusOf(mhc).targets).map(asString));
  const pool = asString(asObject(asObject(specOf(mhc).selector).matchLabels)[LABELS.deploymentName]);

  return input.records.filter((r) => {
    const m = r.objects.machine;

    if (!m || !(targets.has(r.machineName) || (pool && label(m, LABELS.deploymentName) === pool))) {
      return false;
    }
    const check = getCondition(m, 'HealthCheckSucceeded');

    return check?.status === 'False';
  });
}

export const healthCheckCannotRemediate: ClusterRule = {
  id:       'health-check-cannot-remediate',
  severity: 'warning',
  related(input) {
    return input.capi.healthChecks.filter((mhc) => blocked(mhc)).flatMap((mhc) => unhealthyTargets(input, mhc));
  },
  check(input, ctx) {
    if (ctx.availability.machineHealthChecks === 'forbidden' || ctx.availability.machineHealthChecks === 'error') {
      return null;
    }
    const found = input.capi.healthChecks.map(blocked).filter((b): b is Blocked => !!b);

    if (found.length === 0) {
      return null;
    }
    const first = found[0];
    const mhcName = nameOf(first.mhc) ?? '?';
    const ns = namespaceOf(first.mhc);
    const pool = asString(asObject(asObject(specOf(first.mhc).selector).matchLabels)[LABELS.deploymentName]) ?? mhcName;
    const machines = unhealthyTargets(input, first.mhc).map((r) => r.machineName ?? '?');
    const timeout = unhealthyTimeout(first.mhc);
    const label = capiLabel('machineHealthCheck', first.mhc);

    return {
      args: {
        cluster:   input.cluster.name,
        check:     mhcName,
        pool,
        total:     first.total ?? '?',
        unhealthy: first.unhealthy ?? '?',
        limit:     String(first.limit.value),
        range:     first.limit.range ? 'yes' : 'no',
        machines:  machines.join(', ') || '?',
        timeout:   timeout ?? '?',
        others:    found.length - 1,
      },
      evidence: [
        ...(first.said ? conditionEvidence(label, first.said) : []),
        evidence(label, 'status.expectedMachines', first.total),
        evidence(label, 'status.currentHealthy', first.total !== null && first.unhealthy !== null ? first.total - first.unhealthy : null),
        evidence(label, 'status.remediationsAllowed', asNumber(statusOf(first.mhc).remediationsAllowed)),
        evidence(label, first.limit.path, first.limit.value),
        ...found.slice(1).map((b) => evidence(capiLabel('machineHealthCheck', b.mhc), 'status.conditions[RemediationAllowed].status', b.said?.status ?? 'False')),
      ],
      fix: [
        step(this.id, 'targets', { pool }, `kubectl -n ${ sh(ns) } get machines.cluster.x-k8s.io -l ${ LABELS.deploymentName }=${ sh(pool) } -o wide`),
        step(this.id, 'commonCause'),
        step(this.id, 'replaceByHand'),
        step(this.id, 'settings', { timeout: timeout ?? '?', limit: String(first.limit.value) }, `kubectl -n ${ sh(ns) } get machinehealthchecks.cluster.x-k8s.io ${ sh(mhcName) } -o yaml`),
      ],
      since:   first.said?.lastTransitionTime ?? null,
      actions: [],
    };
  },
};

/**
 * Cluster API's words for a cluster it cannot reach (cluster-api core/reconcilers): the CAPI Cluster's
 * RemoteConnectionProbe False ProbeFailed ("Remote connection probe failed, probe last succeeded at …"), and every
 * Machine's NodeHealthy and NodeReady Unknown ConnectionDown ("Last successful probe at …") once the grace period
 * passed. They say nothing of the machines: one cluster finding carries them.
 */
export const CONNECTION_DOWN = 'ConnectionDown';
const NODE_CONDITIONS = ['NodeHealthy', 'NodeReady'];

/**
 * The Machine's condition, in any of its lists, that says its Node cannot be seen because the connection is down:
 * healthy conditions are skipped unwrapped, as every record of a cluster is asked.
 */
function connectionDownCondition(m: KubeObject): Condition | null {
  return findUnhealthyCondition(m, (c) => c.reason === CONNECTION_DOWN && NODE_CONDITIONS.includes(c.type));
}

function connectionDownMachines(input: ClusterRuleInput): NodeRecord[] {
  return input.records.filter((r) => !!r.objects.machine && !r.deleting && connectionDownCondition(r.objects.machine) !== null);
}

export const capiConnectionDown: ClusterRule = {
  id:                 'capi-connection-down',
  severity:           'warning',
  // Explained by the cluster agent's lost connection, which carries Cluster API's: where its kubeconfig points and its
  // own log have nothing more to tell until the agent is back.
  stepsWhenExplained: false,
  related(input) {
    return connectionDownMachines(input);
  },
  check(input, ctx) {
    const capiCluster = input.capi.cluster;
    const probe = capiCluster ? getCondition(capiCluster, 'RemoteConnectionProbe') : null;
    const probeFailed = probe && probe.status === 'False' ? probe : null;
    // A probe that succeeds settles it for every machine: their conditions are read only when it does not say so.
    const machines = probe?.status === 'True' ? [] : connectionDownMachines(input);

    if (!probeFailed && machines.length === 0) {
      return null;
    }
    const machineConditions = machines.slice(0, 1).map((r) => [r, connectionDownCondition(r.objects.machine as KubeObject)] as const);
    // Since the earliest of what says so: the probe, else the first machines' conditions.
    let since: string | null = null;
    let waited: number | null = null;

    for (const t of [probeFailed?.lastTransitionTime, ...machineConditions.map(([, c]) => c?.lastTransitionTime)]) {
      const a = age(ctx, t ?? null);

      if (a !== null && (waited === null || a > waited)) {
        since = t ?? null;
        waited = a;
      }
    }

    // Cluster API waits out its own grace period before it says so; a connection back within the agent's threshold was a blip.
    if (waited !== null && waited < ctx.config.clusterAgentTimeoutMs) {
      return null;
    }
    const ns = input.cluster.namespace;
    const secret = `${ input.cluster.name }-kubeconfig`;
    const ev: Evidence[] = [
      ...(probeFailed && capiCluster ? conditionEvidence(capiLabel('capiCluster', capiCluster), probeFailed) : []),
      ...machineConditions.flatMap(([r, c]) => (c ? conditionEvidence(objectLabel('machine', r.objects.machine as KubeObject), c) : [])),
    ];

    if (machines.length > machineConditions.length) {
      ev.push(evidence(`Cluster ${ input.cluster.name }`, `machines with ${ CONNECTION_DOWN }`, String(machines.length)));
    }

    return {
      args:     {
        cluster: input.cluster.name, machines: machines.length, duration: duration(waited), mgmtId: input.cluster.mgmtId ?? '?'
      },
      evidence: ev,
      fix:      [
        step(this.id, 'stale'),
        step(this.id, 'throughRancher', { secret, mgmtId: input.cluster.mgmtId ?? '?' }),
        step(this.id, 'kubeconfig', { secret }, `kubectl -n ${ sh(ns) } get secret ${ sh(secret) }`),
        step(this.id, 'capiLog'),
      ],
      since,
      actions: [],
    };
  },
};
