/**
 * The rules that read the signal tables (engine/signals): one finding per entry the record shows, named by
 * the signal ("Disk pressure on the node"), with the writer's own reason and message and since when.
 */
import type { ActionId, FixStep, KubeObject, NodeRecord } from '../types';
import type { MessageArgs } from '../vocabulary';
import type { Condition } from '../conditions';
import { conditionStatus, getCondition, trueConditions } from '../conditions';
import { annotation, asArray, asString, nameOf } from '../fields';
import type { SignalEntry, SignalTableId } from '../signals/table';
import { signalId, signalKey } from '../signals/table';
import {
  NODE_CONDITION_SIGNALS, OTHER_NODE_CONDITION, PROBLEM_CONDITION_NAME, TAINT_CONDITIONS, TAINT_SIGNALS
} from '../signals/node';
import { MACHINE_ANNOTATION_SIGNALS, MACHINE_CONDITION_SIGNALS } from '../signals/machine';
import { taintText } from '../objects';
import { customHost, removeMachineAnnotation, resumeMachineCommand } from './shared';
import { crictl, distributionOf, serviceStatus, servicesSaid } from './host-commands';
import {
  Rule, RuleContext, RuleHit, age, conditionEvidence, duration, evidence, kubectl, kubectlMachine, objectLabel
} from './rule';

const CONDITION_BY_TYPE = new Map(NODE_CONDITION_SIGNALS.map((e) => [e.conditionType, e]));
/** Types the kubelet owns that say health when True or are read elsewhere (Ready: node-not-ready). */
const NOT_A_PROBLEM = new Set(['Ready']);

const SHARED = 'shared:';

export function signalSteps(
  table: SignalTableId, entry: SignalEntry, commands: Record<string, string | undefined>, args: Record<string, MessageArgs> = {}
): FixStep[] {
  return entry.fix.map((name) => {
    // shared:<step>: the same step in several entries, one key, so that a plan says it once.
    const s: FixStep = { key: name.startsWith(SHARED) ? `nodeHealth.signals.sharedFix.${ name.slice(SHARED.length) }` : signalKey(table, entry, `fix.${ name }`) };
    const command = commands[name];

    if (command) {
      s.command = command;
    }
    // What the step's words depend on, where they depend on the record (a custom host, what replaces a node).
    if (args[name]) {
      s.args = args[name];
    }

    return s;
  });
}

export function hitOf(table: SignalTableId, entry: SignalEntry, hit: Omit<RuleHit, 'signal' | 'severity'>): RuleHit {
  return {
    ...hit,
    severity: entry.severity,
    signal:   {
      id: signalId(table, entry), titleKey: signalKey(table, entry, 'title'), causeKey: signalKey(table, entry, 'cause')
    },
  };
}

/**
 * A condition's own words for a finding's sentence: "reason: message", either one alone, or 'none' (the sentence then
 * quotes nothing). Cluster API's v1beta1 conditions often have no message (OwnerRemediated, the hooks).
 */
function conditionSaid(c: Condition): string {
  return [c.reason, c.message].filter((x) => !!x).join(': ') || 'none';
}

/** Past the threshold, or since an unknown time. */
function lasted(ctx: RuleContext, since: string | null, thresholdMs: number): boolean {
  const waited = age(ctx, since);

  return waited === null || waited >= thresholdMs;
}

/**
 * The Node's description, and where the host runs its kubelet and container runtime: RKE2 and K3s run both inside
 * their own service (rke2-server, rke2-agent, k3s, k3s-agent; rke2 on Windows), with a containerd of their own that
 * only their crictl reaches (its images are what a full disk frees first).
 */
function nodeCommands(r: NodeRecord, n: KubeObject): Record<string, string> {
  const windows = r.os === 'windows';

  return {
    describe: kubectl('describe', 'node', [nameOf(n)]),
    kubelet:  serviceStatus(r),
    runtime:  windows ? serviceStatus(r) : crictl(distributionOf(r), 'info'),
    ...(windows ? {} : { disk: crictl(distributionOf(r), 'rmi --prune') }),
  };
}

/** The words of the kubelet and runtime steps: the service the host runs them in. */
function serviceArgs(r: NodeRecord): Record<string, MessageArgs> {
  const services = { services: servicesSaid(r) };

  return { kubelet: services, runtime: services };
}

/** A type the condition table lists, or whose name says a problem; Ready is node-not-ready's. */
function problemType(type: string): boolean {
  return !NOT_A_PROBLEM.has(type) && (CONDITION_BY_TYPE.has(type) || PROBLEM_CONDITION_NAME.test(type));
}

/** The Node's own conditions that are a problem now: listed ones and any whose name says a problem. */
const NO_PROBLEMS: readonly { entry: SignalEntry; condition: Condition }[] = Object.freeze([]);

function problemConditions(n: KubeObject): readonly { entry: SignalEntry; condition: Condition }[] {
  const found = trueConditions(n, problemType);

  return found.length === 0 ? NO_PROBLEMS : found.map((condition) => ({ entry: CONDITION_BY_TYPE.get(condition.type) ?? OTHER_NODE_CONDITION, condition }));
}

export const nodeCondition: Rule = {
  id:       'node-condition',
  severity: 'warning',
  needs:    [],
  check(r, ctx) {
    const n = r.objects.node;

    if (!n || r.deleting) {
      return null;
    }
    const problems = problemConditions(n);

    if (problems.length === 0) {
      return null;
    }
    const nodeLabel = objectLabel('node', n);
    const hits: RuleHit[] = [];

    for (const { entry, condition } of problems) {
      if (!lasted(ctx, condition.lastTransitionTime, ctx.config.nodeNotReadyTimeoutMs)) {
        continue;
      }
      hits.push(hitOf('nodeConditions', entry, {
        args: {
          node: nameOf(n) ?? '?', type: condition.type, said: conditionSaid(condition), duration: duration(age(ctx, condition.lastTransitionTime)),
        },
        evidence: conditionEvidence(nodeLabel, condition),
        fix:      signalSteps('nodeConditions', entry, nodeCommands(r, n), serviceArgs(r)),
        since:    condition.lastTransitionTime,
      }));
    }

    return hits.length ? hits : null;
  },
};

export const nodeTaint: Rule = {
  id:       'node-taint',
  severity: 'warning',
  needs:    [],
  check(r, ctx) {
    const n = r.objects.node;
    const taints = n ? asArray(n.spec?.taints) : [];

    if (!n || r.deleting || taints.length === 0) {
      return null;
    }
    const nodeLabel = objectLabel('node', n);
    const hits: RuleHit[] = [];

    for (const entry of TAINT_SIGNALS) {
      const taint = taints.find((t) => t && t.key === entry.taintKey);

      if (!taint) {
        continue;
      }
      // A taint that its condition explains is that condition's evidence, not a finding of its own.
      const explainedBy = TAINT_CONDITIONS[entry.taintKey];
      const c = explainedBy ? getCondition(n, explainedBy) : null;

      if (c && (explainedBy === 'Ready' ? c.status !== 'True' : c.status === 'True')) {
        continue;
      }
      const since = asString(taint.timeAdded);
      const threshold = entry.id === 'autoscalerDeleting' ? ctx.config.drainTimeoutMs : ctx.config.nodeNotReadyTimeoutMs;

      if (!lasted(ctx, since, threshold)) {
        continue;
      }
      hits.push(hitOf('taints', entry, {
        args: {
          node: nameOf(n) ?? '?', key: entry.taintKey, effect: asString(taint.effect) ?? '-', duration: duration(age(ctx, since)),
        },
        evidence: [
          evidence(nodeLabel, `spec.taints[${ entry.taintKey }]`, taintText(taint)),
          ...(since ? [evidence(nodeLabel, `spec.taints[${ entry.taintKey }].timeAdded`, since)] : []),
          ...(c ? conditionEvidence(nodeLabel, c) : []),
        ],
        fix: signalSteps('taints', entry, {
          ...nodeCommands(r, n),
          outOfService: kubectl('taint', 'nodes', [nameOf(n)], { after: [`${ entry.taintKey }-`] }),
        }, { ...serviceArgs(r), cloudShutdown: { machine: replacedBy(r) } }),
        since,
      }));
    }

    return hits.length ? hits : null;
  },
};

/** What replaces a node whose instance is gone: its pool, nothing (a custom host: another registers), or no machine at all. */
function replacedBy(r: NodeRecord): 'pool' | 'custom' | 'none' {
  if (!r.objects.machine) {
    return 'none';
  }

  return customHost(r) === 'yes' ? 'custom' : 'pool';
}

function machineCommands(r: NodeRecord, entry: SignalEntry): Record<string, string> {
  const m = r.objects.machine as KubeObject;
  const out: Record<string, string> = {
    'shared:healthChecks': kubectl('get', 'machinehealthchecks.cluster.x-k8s.io', [], { namespace: r.machineNamespace, flags: ['-o', 'wide'] }),
    whoPaused:             kubectlMachine(r, 'get', '--show-managed-fields', '-o', 'yaml'),
    node:                  r.nodeName ? kubectl('describe', 'node', [r.nodeName]) : kubectlMachine(r, 'describe'),
  };

  // The Paused condition is there whoever paused the machine; only a pause set on the machine is lifted on it.
  if (entry.id === 'pausedCondition') {
    out.resume = annotation(m, 'cluster.x-k8s.io/paused') !== null ? resumeMachineCommand(r) : '';
  }

  return out;
}

/**
 * What a failed health check judged, by its reason (cluster-api core/reconcilers/machinehealthcheck, v1beta2 and
 * v1beta1 names): the Node's conditions, a Node that never came, a Node deleted, the machine's own conditions, or
 * the remediate-machine annotation.
 */
const HEALTH_CHECK_REASONS = new Map<string, string>([
  ['UnhealthyNode', 'node'],
  ['NodeStartupTimeout', 'startup'],
  ['NodeDeleted', 'deleted'],
  ['NodeNotFound', 'deleted'],
  ['UnhealthyMachine', 'machine'],
  ['HasRemediateAnnotation', 'annotation'],
  ['HasRemediateMachineAnnotation', 'annotation'],
]);

/** The health check's step says what it judged; only an unhealthy Node is looked at on the Node. */
function healthCheckStep(fix: FixStep[], r: NodeRecord, reason: string | null): void {
  const s = fix.find((x) => x.key.endsWith('.fix.node'));
  // A reason is the cluster's text: looked up in a Map, never among an object's own properties.
  const why = HEALTH_CHECK_REASONS.get(reason ?? '') ?? 'other';

  if (s) {
    s.args = { why };
    if (why !== 'node' && why !== 'other') {
      s.command = kubectlMachine(r, 'describe');
    }
  }
}

/**
 * What a paused Machine leaves undone: Cluster API's Machine controller does not reconcile it (cluster-api
 * core/reconcilers/machine Reconcile returns at the pause), so it neither makes the Machine the owner of its
 * RKEBootstrap, which Rancher waits for before it writes the plan secret, nor links its Node.
 */
const PAUSED_MACHINE_EXPLAINS = ['plan-secret-missing', 'waiting-for-node-ref', 'node-not-linked'];

export const machineSignal: Rule = {
  id:       'machine-signal',
  severity: 'warning',
  needs:    [],
  check(r, ctx) {
    const m = r.objects.machine;

    if (!m || r.deleting) {
      return null;
    }
    // Most machines show none of these: nothing is built for them.
    let hits: RuleHit[] | null = null;

    for (const entry of MACHINE_ANNOTATION_SIGNALS) {
      const value = annotation(m, entry.annotation);

      if (value === null) {
        continue;
      }
      (hits ??= []).push(hitOf('machineAnnotations', entry, {
        args:     { machine: r.machineName ?? '?', annotation: entry.annotation },
        evidence: [evidence(objectLabel('machine', m), entry.field, value)],
        // Its last step takes back the annotation someone set: it removes the annotation the signal read.
        fix:      signalSteps('machineAnnotations', entry, { ...machineCommands(r, entry), [entry.undo]: removeMachineAnnotation(r, entry.annotation) }),
        since:    null,
        // A pause set on the machine itself is lifted on the machine; the dialog checks who else holds it.
        ...(entry.id === 'paused' ? { actions: ['resume-machine'] as ActionId[], explains: PAUSED_MACHINE_EXPLAINS } : {}),
      }));
    }
    for (const entry of MACHINE_CONDITION_SIGNALS) {
      // Read without making a Condition: nearly every machine shows none of them.
      const c = conditionStatus(m, entry.conditionType) === entry.status ? getCondition(m, entry.conditionType) : null;

      if (!c || c.status !== entry.status) {
        continue;
      }
      const fix = signalSteps('machineConditions', entry, machineCommands(r, entry));

      if (entry.id === 'healthCheckFailed') {
        healthCheckStep(fix, r, c.reason);
      }
      (hits ??= []).push(hitOf('machineConditions', entry, {
        args: {
          machine: r.machineName ?? '?', said: conditionSaid(c), duration: duration(age(ctx, c.lastTransitionTime)),
        },
        evidence: conditionEvidence(objectLabel('machine', m), c),
        fix,
        since:    c.lastTransitionTime,
        ...(entry.id === 'pausedCondition' ? { explains: PAUSED_MACHINE_EXPLAINS } : {}),
      }));
    }

    return hits;
  },
};
