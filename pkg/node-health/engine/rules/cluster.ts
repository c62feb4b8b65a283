/**
 * Findings about a whole cluster rather than one node: the init node lost (rancher#37133, #38090, #42709) and
 * the cluster agent disconnected (rancher#41552, #46367, #48585). They read the provisioning cluster's
 * conditions and, where it could be read, the management cluster's; a cluster whose objects say nothing stays
 * silent. Rancher's messages are matched by their stable parts only.
 */
import type { ClusterInfo, Evidence, KubeObject, NodeRecord } from '../types';
import type { Condition } from '../conditions';
import { conditionPath, conditions, getCondition } from '../conditions';
import { asString, describeObject, label, specOf } from '../fields';
import { failureMessage, infrastructureRef, nodeRefName } from '../objects';
import { messageTokens, recordsByCluster } from '../cluster-info';
import { LABELS } from '../vocabulary';
import {
  AGENT_NOT_CONNECTED, AGENT_WAITING, CONFLICT, ENCRYPTION_KEY_ROTATION, ETCD_PLANE_REPLACED, ETCD_RESTORE, INIT_NODE_LOST, PLANNER_MESSAGES,
  PRE_BOOTSTRAP_WAITING, VIABLE_INIT_NODE
} from '../signals/planner';
import type { ClusterRule, ClusterRuleInput, RuleContext } from './rule';
import {
  age, conditionEvidence, duration, evidence, findingOf, kubectl, objectLabel, ruleKey, sh, step
} from './rule';
import { controlPlaneUnavailable, etcdQuorum, nodesStatusFrozen, roleMissing } from './cluster-health';
import { infrastructureJobName, jobLogCommand, joinUrlsCommand } from './shared';
import { capiConnectionDown, healthCheckCannotRemediate, reconciliationPaused } from './capi-health';
import { unexplainedClusterWait } from './safety-net';

export type { ClusterRule, ClusterRuleInput } from './rule';

function provisioningLabel(input: ClusterRuleInput): string {
  return input.provisioning ? describeObject('Cluster', input.provisioning) : `Cluster ${ input.cluster.name }`;
}

/** The first condition of the object that is not True and whose message says this. */
function saying(obj: KubeObject | undefined, pattern: RegExp): Condition | null {
  return obj ? conditions(obj).find((c) => c.status !== 'True' && pattern.test(c.message ?? '')) ?? null : null;
}

function isInitNode(r: NodeRecord): boolean {
  return [r.objects.planSecret, r.objects.machine].some((o) => !!o && label(o, LABELS.initNode) === 'true');
}

export const initNodeMissing: ClusterRule = {
  id:       'init-node-missing',
  severity: 'error',
  // With the etcd plane replaced, the planner gives the new etcd machines no plan: theirs is the cluster's state.
  related(input) {
    return saying(input.provisioning, ETCD_PLANE_REPLACED) ? input.records.filter((r) => r.roles.includes('etcd') && r.objects.machine && !r.deleting) : [];
  },
  check(input, ctx) {
    const replaced = saying(input.provisioning, ETCD_PLANE_REPLACED);
    const said = replaced ?? saying(input.provisioning, INIT_NODE_LOST);
    const machines = input.records.filter((r) => r.objects.machine && !r.deleting);
    // Without a message, only a cluster that ran (an etcd machine with its Node) and whose plan secrets were all
    // read can be said to have lost its init node: a cluster still bootstrapping has not elected one yet.
    const etcdMachines = machines.filter((r) => r.roles.includes('etcd'));
    const ran = etcdMachines.some((r) => nodeRefName(r.objects.machine as KubeObject));
    // The mark is on the init node's plan secret only (initnode.go setInitNodeMark): with an etcd machine's plan secret
    // gone, that machine may be the init node, and whether the cluster lost it cannot be told.
    const absent = !said && ran && ctx.availability.planSecrets === 'ok' && etcdMachines.every((r) => r.objects.planSecret) &&
      !input.records.some(isInitNode);

    if (!said && !absent) {
      return null;
    }
    const ns = input.cluster.namespace;
    const ev: Evidence[] = said ? conditionEvidence(provisioningLabel(input), said) : [
      evidence(`Secret ${ ns ?? '' }/*-machine-plan`, `metadata.labels[${ LABELS.initNode }]`, null),
      evidence(provisioningLabel(input), 'etcd machines', machines.filter((r) => r.roles.includes('etcd')).map((r) => r.machineName).join(', ')),
    ];

    return {
      severity: said ? 'error' : 'warning',
      args:     { cluster: input.cluster.name, said: replaced ? 'replaced' : (said ? 'yes' : 'no') },
      evidence: ev,
      // With the whole etcd plane gone there is no init node to find or elect: a restore is the only way.
      fix:      replaced ? [step(this.id, 'restoreNow', { cluster: input.cluster.name })] : [
        step(this.id, 'which', {}, `kubectl -n ${ sh(ns) } get secrets -l ${ LABELS.initNode }=true --field-selector type=rke.cattle.io/machine-plan`),
        step(this.id, 'designated', {}, `kubectl -n ${ sh(ns) } get clusters.provisioning.cattle.io ${ sh(input.cluster.name) } -o jsonpath='{.metadata.labels}'`),
        step(this.id, 'upgrade'),
        step(this.id, 'restore'),
      ],
      since:   said?.lastTransitionTime ?? null,
      actions: [],
    };
  },
};

/** Why an etcd machine cannot be the init node, in the order Rancher's canBeInitNode asks; null: it could be. */
type NotViable = 'noPlanSecret' | 'deleting' | 'failed' | 'infrastructure';

interface EtcdCandidate {
  r: NodeRecord;
  why: NotViable | null;
}

/**
 * The etcd machines as the planner sees them (pkg/capr/planner/store.go Load, planentry.go): a machine is an etcd entry
 * by its plan secret's role label, and can be the init node when it is not deleting, not Failed and its Machine's
 * InfrastructureReady is True. Where the plan secrets could not be read, the Machine's own role label stands in.
 */
function etcdCandidates(input: ClusterRuleInput, ctx: RuleContext): EtcdCandidate[] {
  const secretsRead = ctx.availability.planSecrets === 'ok';

  return input.records
    .filter((r) => r.objects.machine && (r.objects.planSecret ? label(r.objects.planSecret, LABELS.etcdRole) === 'true' : r.roles.includes('etcd')))
    .map((r) => {
      const m = r.objects.machine as KubeObject;
      let why: NotViable | null = null;

      if (!r.objects.planSecret && secretsRead) {
        why = 'noPlanSecret';
      } else if (r.deleting) {
        why = 'deleting';
      } else if (r.phase === 'Failed') {
        why = 'failed';
      } else if (getCondition(m, 'InfrastructureReady')?.status !== 'True') {
        why = 'infrastructure';
      }

      return { r, why };
    });
}

function viableInitNodeWait(input: ClusterRuleInput): Condition | null {
  return input.cluster.kind === 'imported' ? null : saying(input.provisioning, VIABLE_INIT_NODE);
}

function candidateEvidence(c: EtcdCandidate): Evidence[] {
  const m = c.r.objects.machine as KubeObject;
  const machine = objectLabel('machine', m);

  switch (c.why) {
  case 'noPlanSecret':
    return [evidence(`Secret ${ c.r.machineNamespace ?? '' }/${ c.r.host.planSecretName ?? '' }`, 'metadata', null)];
  case 'deleting':
    return [evidence(machine, 'metadata.deletionTimestamp', c.r.deleting)];
  case 'failed':
    return [evidence(machine, 'status.phase', c.r.phase), ...(failureMessage(m) ? [evidence(machine, 'status.failureMessage', failureMessage(m))] : [])];
  case 'infrastructure': {
    const ready = getCondition(m, 'InfrastructureReady');

    return ready ? conditionEvidence(machine, ready) : [evidence(machine, 'status.conditions[InfrastructureReady]', null)];
  }
  default: {
    const ready = getCondition(m, 'InfrastructureReady');

    return [evidence(machine, 'status.phase', c.r.phase), ...(ready ? [evidence(machine, `${ conditionPath(ready) }.status`, ready.status)] : [])];
  }
  }
}

/** The names of these records' machines: a cluster has a handful of etcd machines. */
function machineList(records: NodeRecord[]): string {
  return records.map((r) => r.machineName ?? '?').join(', ');
}

/** A server Rancher makes with a node driver (rke-machine.cattle.io), by the Machine's reference: a create job and a provider behind it. */
function madeByDriver(r: NodeRecord): boolean {
  return !!r.objects.machine && infrastructureRef(r.objects.machine)?.group === 'rke-machine.cattle.io';
}

/**
 * The planner elects the init node, the etcd member the others join, only among etcd machines that are not deleting,
 * not Failed and whose infrastructure is ready (planentry.go canBeInitNode); with none it says "waiting for viable init
 * node" (initnode.go electInitNode) and writes no plan to any machine. On a new node-driver cluster that is the server
 * its create job is still making, or cannot finish (rancher-docs#585; rancher#42192, #46248 on Harvester).
 */
export const initNodeNotViable: ClusterRule = {
  id:       'init-node-not-viable',
  severity: 'error',
  related(input, ctx) {
    return viableInitNodeWait(input) ? etcdCandidates(input, ctx).filter((c) => c.why).map((c) => c.r) : [];
  },
  relatedArgs(record, input, ctx) {
    return { why: etcdCandidates(input, ctx).find((c) => c.r === record)?.why ?? 'other' };
  },
  check(input, ctx) {
    const said = viableInitNodeWait(input);

    if (!said) {
      return null;
    }
    const waited = age(ctx, said.lastTransitionTime);

    // Making a server takes minutes: the wait is news only once it outlasts a machine's start-up.
    if (waited !== null && waited < ctx.config.nodeStartupTimeoutMs) {
      return null;
    }
    const candidates = etcdCandidates(input, ctx);
    const blocked = candidates.filter((c) => c.why);
    const viable = candidates.filter((c) => !c.why);
    const by = (why: NotViable) => blocked.filter((c) => c.why === why).map((c) => c.r);
    const infrastructure = by('infrastructure');
    const driven = infrastructure.filter(madeByDriver);
    const otherInfrastructure = infrastructure.filter((r) => !madeByDriver(r));
    const ns = input.cluster.namespace;
    // One log step per server being made, for the first three: more of the same step is noise, the provider step names them all.
    const jobSteps = driven.slice(0, 3).flatMap((r) => {
      const job = infrastructureJobName(r);

      return job ? [step(this.id, 'createJob', { machine: r.machineName ?? '?' }, jobLogCommand(job, r.machineNamespace ?? ns))] : [];
    });
    const fix = [
      ...jobSteps,
      ...(driven.length ? [step(this.id, 'provider', { machines: machineList(driven) })] : []),
      ...(otherInfrastructure.length ? [step(this.id, 'infrastructure', { machines: machineList(otherInfrastructure), count: otherInfrastructure.length })] : []),
      ...(by('deleting').length ? [step(this.id, 'deleting', { machines: machineList(by('deleting')), count: by('deleting').length })] : []),
      ...(by('failed').length ? [step(this.id, 'failed', { machines: machineList(by('failed')), count: by('failed').length })] : []),
      ...(by('noPlanSecret').length ? [step(this.id, 'noPlanSecret', { machines: machineList(by('noPlanSecret')), count: by('noPlanSecret').length })] : []),
      // A server still being made may yet come up; with none left that can, only a new etcd machine ends the wait.
      ...(!infrastructure.length ? [step(this.id, 'addEtcd', { cluster: input.cluster.name })] : []),
      step(this.id, 'rancherLog', {}, `kubectl -n cattle-system logs -l app=rancher --since=1h | grep -F ${ sh(`[planner] rkecluster ${ ns ?? '' }/${ input.cluster.name }:`) }`),
    ];

    return {
      args: {
        cluster:  input.cluster.name,
        duration: duration(waited),
        // Some etcd machine that could be elected, as read: the planner's view is not what was read.
        state:    !candidates.length ? 'noEtcd' : (viable.length ? 'someViable' : 'blocked'),
        count:    candidates.length,
        machines: machineList(candidates.map((c) => c.r)),
        viable:   viable.length ? machineList(viable.map((c) => c.r)) : '-',
      },
      evidence: [...conditionEvidence(provisioningLabel(input), said), ...candidates.slice(0, 10).flatMap(candidateEvidence)],
      fix,
      since:    said.lastTransitionTime,
      actions:  [],
    };
  },
};

/** The planner waiting for Rancher to pre-bootstrap the cluster, on the provisioning cluster's conditions. */
function preBootstrapWait(input: ClusterRuleInput): Condition | null {
  return input.cluster.kind === 'imported' ? null : saying(input.provisioning, PRE_BOOTSTRAP_WAITING);
}

/**
 * The signs of a disconnected agent: the planner waiting for it, else an object's Connected and Ready conditions that
 * say so. Not while the planner waits for the pre-bootstrap: Rancher holds Connected False until it is done
 * (clusterconnected.go), so it says nothing of the agent then; pre-bootstrap-pending asks after the agent itself.
 */
function disconnection(input: ClusterRuleInput): { object: string; conditions: Condition[] } | null {
  const prov = input.provisioning;
  const mgmt = input.management;
  const waiting = saying(prov, AGENT_WAITING);

  if (waiting) {
    return { object: provisioningLabel(input), conditions: [waiting] };
  }
  if (preBootstrapWait(input)) {
    return null;
  }
  for (const [obj, name] of [[mgmt, mgmt ? describeObject('management Cluster', mgmt) : ''], [prov, provisioningLabel(input)]] as [KubeObject | undefined, string][]) {
    const connected = obj ? getCondition(obj, 'Connected') : null;
    const ready = obj ? getCondition(obj, 'Ready') : null;
    const found = [
      connected?.status === 'False' ? connected : null,
      ready && ready.status !== 'True' && (ready.reason === 'Disconnected' || AGENT_NOT_CONNECTED.test(ready.message ?? '')) ? ready : null,
    ].filter((c): c is Condition => !!c);

    if (found.length > 0) {
      return { object: name, conditions: found };
    }
  }

  return null;
}

/** The agent's connection as the cluster objects say it now, with no threshold: what a write depends on. */
function agentConnection(input: ClusterRuleInput): NonNullable<ClusterInfo['agent']> {
  // While Rancher pre-bootstraps the cluster it reports the agent disconnected whatever the agent does.
  if ((!input.provisioning && !input.management) || preBootstrapWait(input)) {
    return 'unknown';
  }

  return disconnection(input) ? 'disconnected' : 'connected';
}

export const clusterAgentDisconnected: ClusterRule = {
  id:       'cluster-agent-disconnected',
  severity: 'error',
  check(input, ctx) {
    const found = disconnection(input);

    if (!found) {
      return null;
    }
    const since = found.conditions[0].lastTransitionTime;
    const waited = age(ctx, since);

    if (waited !== null && waited < ctx.config.clusterAgentTimeoutMs) {
      return null;
    }

    return {
      args:     { cluster: input.cluster.name, duration: duration(waited) },
      evidence: found.conditions.flatMap((c) => conditionEvidence(found.object, c)),
      fix:      [
        step(this.id, 'stale'),
        step(this.id, 'agentPods', {}, 'kubectl -n cattle-system get pods -l app=cattle-cluster-agent -o wide'),
        step(this.id, 'agentLogs', {}, 'kubectl -n cattle-system logs -l app=cattle-cluster-agent --tail=100'),
        step(this.id, 'reach'),
        step(this.id, 'rancherLogs', {}, 'kubectl -n cattle-system logs -l app=rancher --since=1h | grep -i "cluster accessor\\|cluster agent"'),
      ],
      since,
      actions:  [],
      // Cluster API reaches the cluster through Rancher, as the agent connects it: its lost connection is this one.
      explains: ['capi-connection-down'],
    };
  },
};

/**
 * The planner holds a new cluster's control plane until Rancher has copied the secrets marked for pre-bootstrap into
 * it (feature provisioningprebootstrap): "configuring bootstrap node(s) <machine>: waiting for cluster pre-bootstrap to
 * complete". Rancher copies them through the cluster agent's connection as soon as it has one; a secret it cannot copy
 * stops it ("failed to start cluster controllers <cluster>: failed to synchronize secret <ns>/<name> to cluster …").
 * The machine the message names is not the cause.
 */
export const preBootstrapPending: ClusterRule = {
  id:       'pre-bootstrap-pending',
  severity: 'error',
  check(input, ctx) {
    const said = preBootstrapWait(input);

    if (!said) {
      return null;
    }
    const waited = age(ctx, said.lastTransitionTime);

    if (waited !== null && waited < ctx.config.clusterAgentTimeoutMs) {
      return null;
    }
    const mgmt = input.management;
    const mgmtLabel = mgmt ? describeObject('management Cluster', mgmt) : null;
    const shown = mgmt ? ['PreBootstrapped', 'Connected'].map((type) => getCondition(mgmt, type)).filter((c): c is Condition => !!c) : [];
    const ns = input.cluster.namespace ?? 'fleet-default';

    return {
      args:     { cluster: input.cluster.name, duration: duration(waited) },
      evidence: [
        ...conditionEvidence(provisioningLabel(input), said),
        ...(mgmtLabel ? shown.flatMap((c) => conditionEvidence(mgmtLabel, c)) : []),
      ],
      fix: [
        step(this.id, 'held'),
        step(this.id, 'agentPods', {}, 'kubectl -n cattle-system get pods -l app=cattle-cluster-agent -o wide'),
        step(this.id, 'secrets', { namespace: ns, cluster: input.cluster.name },
          `kubectl -n ${ sh(ns) } get secrets -o jsonpath='{range .items[?(@.metadata.annotations.provisioning\\.cattle\\.io/sync-bootstrap=="true")]}{.metadata.name}{"\\t"}{.metadata.annotations.rke\\.cattle\\.io/object-authorized-for-clusters}{"\\n"}{end}'`),
        step(this.id, 'rancherLogs', {}, 'kubectl -n cattle-system logs -l app=rancher --since=1h | grep -i "failed to start cluster controllers\\|failed to synchronize secret"'),
      ],
      since:   said.lastTransitionTime,
      actions: [],
    };
  },
};

/** The planner's errors with words of their own, by kind (signals/planner.ts); the other rules' messages are theirs. */
const PLANNER_ERRORS = PLANNER_MESSAGES.filter((e) => e.rule === 'planner-error');
// reconciliation-paused reads a restore's and an encryption key rotation's own words, failures included.
const OTHER_RULES_MESSAGES = [...PLANNER_MESSAGES.filter((e) => e.rule !== 'planner-error').map((e) => e.pattern), ETCD_RESTORE, ENCRYPTION_KEY_ROTATION];
const PLANNER_ERROR_KINDS: Record<string, string> = {
  kdmMissing: 'kdm', filesUnusable: 'files', initNodesMany: 'initNodes', noJoinUrl: 'joinUrl'
};

/**
 * What the planner stopped on, from the cluster's Updated condition (Provisioned and Ready carry the same copy of the
 * RKEControlPlane's Ready). Its controller writes an error it cannot get past as False with reason Error; the one wait
 * no pass of its own ends, release data missing, is still Unknown/Waiting. A conflict is a write lost to another
 * controller, gone on the next pass; a message another rule reads is that rule's.
 */
function plannerStop(input: ClusterRuleInput): { condition: Condition; kind: string } | null {
  // Only a cluster Rancher provisions has a planner; an imported cluster's conditions are others' words.
  const updated = input.provisioning && input.cluster.kind !== 'imported' ? getCondition(input.provisioning, 'Updated') : null;
  const message = updated?.message ?? '';

  if (!updated || updated.status === 'True' || !message || CONFLICT.test(message)) {
    return null;
  }
  const known = PLANNER_ERRORS.find((e) => e.pattern.test(message));
  const kind = known ? PLANNER_ERROR_KINDS[known.id] ?? 'other' : 'other';

  if (kind === 'kdm' || (updated.status === 'False' && updated.reason === 'Error' && !OTHER_RULES_MESSAGES.some((p) => p.test(message)))) {
    return { condition: updated, kind };
  }

  return null;
}

/** "access secret fleet-default/registry-ca": the object a file of the cluster's configuration is taken from. */
function fileObjectOf(message: string): { kind: string; namespace: string; name: string } | null {
  const m = /\baccess (secret|configmap) ([^\s/]+)\/(\S+)/i.exec(message);

  return m ? {
    kind: m[1].toLowerCase(), namespace: m[2], name: m[3]
  } : null;
}

export const plannerError: ClusterRule = {
  id:       'planner-error',
  severity: 'error',
  // The machines the error is about: those marked as the init node, or the worker it cannot join.
  related(input) {
    const stop = plannerStop(input);

    if (stop?.kind === 'initNodes') {
      return input.records.filter((r) => !!r.objects.machine && isInitNode(r));
    }
    if (stop?.kind === 'joinUrl') {
      const tokens = messageTokens(stop.condition.message ?? '');

      return input.records.filter((r) => !!r.objects.machine && !!r.machineName && tokens.has(r.machineName));
    }

    return [];
  },
  check(input, ctx) {
    const stop = plannerStop(input);

    if (!stop) {
      return null;
    }
    const since = stop.condition.lastTransitionTime;
    const waited = age(ctx, since);

    // The planner retries at once; an error it gets past within the time a plan takes to apply was a passing one.
    if (waited !== null && waited < ctx.config.planApplyTimeoutMs) {
      return null;
    }
    const ns = input.cluster.namespace;
    const name = input.cluster.name;
    const message = stop.condition.message ?? '';
    const version = asString(specOf(input.provisioning as KubeObject).kubernetesVersion) ?? '';
    const file = stop.kind === 'files' ? fileObjectOf(message) : null;
    const own = {
      kdm: [
        step(this.id, 'kdmSetting', {}, `kubectl get settings.management.cattle.io rke-metadata-config -o jsonpath='{.value}'`),
        step(this.id, 'kdmVersion', { version }),
      ],
      files: [
        step(this.id, 'filesFix', { object: file ? `${ file.kind } ${ file.namespace }/${ file.name }` : 'none' }, file ? kubectl('get', file.kind, [file.name], { namespace: file.namespace, flags: [`-o jsonpath='{.metadata.annotations}'`] }) : undefined),
        step(this.id, 'filesAuthorize', { cluster: name }),
      ],
      initNodes: [
        step(this.id, 'initNodes', {}, `kubectl -n ${ sh(ns) } get secrets -l ${ LABELS.initNode }=true --field-selector type=rke.cattle.io/machine-plan`),
        step(this.id, 'initNodesSupport'),
      ],
      joinUrl: [
        step(this.id, 'joinUrl', {}, joinUrlsCommand(ns, LABELS.controlPlaneRole)),
      ],
      other: [step(this.id, 'readMessage')],
    }[stop.kind] ?? [];

    return {
      args:     {
        cluster: name, kind: stop.kind, duration: duration(waited), version
      },
      evidence: conditionEvidence(provisioningLabel(input), stop.condition),
      fix:      [
        ...own,
        step(this.id, 'rancherLog', {}, `kubectl -n cattle-system logs -l app=rancher --since=1h | grep -F ${ sh(`[planner] rkecluster ${ ns ?? '' }/${ name }:`) }`),
        step(this.id, 'retries'),
      ],
      since,
      actions: [],
    };
  },
};

export const CLUSTER_RULES: readonly ClusterRule[] = [
  clusterAgentDisconnected, preBootstrapPending, capiConnectionDown, plannerError, etcdQuorum, controlPlaneUnavailable, nodesStatusFrozen, roleMissing, initNodeMissing, initNodeNotViable,
  reconciliationPaused,
  healthCheckCannotRemediate,
  // Last: it speaks only when nothing above did.
  unexplainedClusterWait,
];

/** Runs the cluster rules; a rule that trips over an object shape it did not expect leaves a note with the reason. */
export function judgeClusters(clusters: ClusterInfo[], records: NodeRecord[], ctx: RuleContext): void {
  const byCluster = recordsByCluster(records);

  for (const cluster of clusters) {
    const objects = ctx.clusterObjectsOf(cluster);
    const input: ClusterRuleInput = {
      cluster, records: byCluster.get(cluster) ?? [], provisioning: objects.cluster, management: objects.mgmtCluster, capi: ctx.capiObjectsOf(cluster)
    };

    cluster.findings = [];
    cluster.notes = [];
    cluster.agent = agentConnection(input);
    for (const rule of CLUSTER_RULES) {
      if ((rule.fallback && cluster.findings.length) || (rule.needsEveryRecord && ctx.scoped)) {
        continue;
      }
      try {
        const hit = rule.check(input, ctx);

        if (hit && 'notJudged' in hit) {
          cluster.notes.push(hit.notJudged);
        } else if (hit) {
          cluster.findings.push(findingOf(rule, hit));
          for (const r of rule.related?.(input, ctx) ?? []) {
            r.notes.push({ key: `nodeHealth.notes.partOf.${ ruleKey(rule.id) }`, args: { ...hit.args, ...rule.relatedArgs?.(r, input, ctx) } });
          }
        }
      } catch (e) {
        // Not judged is not fine: the cluster says which check could not run, and why.
        cluster.notes.push({ key: 'nodeHealth.notes.ruleFailed', args: { rule: rule.id, message: e instanceof Error ? e.message : String(e) } });
      }
    }
  }
}
