/**
 * Rules about the link between a machine and the Kubernetes Node it should become: "Waiting for Node Ref"
 * and its three families (no machine, infrastructure gone, kubelet never registered), name mismatches,
 * Nodes left behind by deleted machines, and machines whose Node is gone or not ready.
 */
import type { Evidence, KubeObject, NodeRecord } from '../types';
import {
  conditionStatus, conditions, findUnhealthyCondition, getCondition, isTrue, nodeReadyCondition
} from '../conditions';
import type { Condition } from '../conditions';
import {
  annotation, asArray, asObject, asString, describeObject, hasFields, label, metadata, nameOf, namespaceOf, specOf, statusOf
} from '../fields';
import {
  NODE_LEASE_NAMESPACE, bootstrapRef, formerMachineOf, infrastructureRef, nodeRefName
} from '../objects';
import { planSecretKnownMissing } from '../plan-status';
import { ANNOTATIONS, LABELS } from '../vocabulary';
import {
  Rule, RuleContext, RuleHit, age, commonStep, conditionEvidence, duration, evidence, kubectl, kubectlMachine, objectLabel, podsOnNode, sh, acting, step
} from './rule';
import {
  customHost, findHostSteps, infrastructureFailure, infrastructureJobError, infrastructureJobName, infrastructureObjectGone, infrastructurePending, jobLogCommand,
  capiControllerLog, readLease, resumeMachineCommand, rkeBootstrapYaml, staleReadyBeat
} from './shared';
import { expectedNodeName } from '../expected-name';
import { sameHostWith, withSharedEvidence } from '../hosts';
import {
  crictl, distributionOf, kubeletLogSearch, NODE_HEARTBEATS, serviceStatus, servicesSaid, STOP_HOST_SERVICES, STOP_HOST_SERVICES_WINDOWS
} from './host-commands';

/**
 * `why`: the Node never registered, or it did and is not Ready now, or its kubelet renews neither its status nor
 * its Lease (what to look for in the log), or the Node was deleted under a running kubelet, which registers its Node
 * only when it starts (pkg/kubelet/kubelet_node_status.go registerWithAPIServer).
 */
function kubeletStep(r: NodeRecord, why: 'register' | 'ready' | 'lease' | 'deleted') {
  return r.os === 'windows' ? commonStep('kubeletWindows', { why }, serviceStatus(r)) : commonStep('kubeletLinux', { why, services: servicesSaid(r) }, serviceStatus(r));
}

function downstreamNodesStep(r: NodeRecord) {
  return commonStep('listNodes', { cluster: r.cluster?.name ?? '?' }, 'kubectl get nodes -o wide');
}

/** A Node without a machine that a machine expects under another spelling of its name. */
function explainedByNameMismatch(r: NodeRecord, ctx: RuleContext): boolean {
  const name = r.nodeName;

  return !!name && !!ctx.expectedNames.get(r.cluster)?.has(name.toLowerCase());
}

export const waitingForNodeRef: Rule = {
  id:                 'waiting-for-node-ref',
  severity:           'warning',
  stepsWhenExplained: false,
  needs:              [],
  check(r, ctx) {
    const m = r.objects.machine;

    // A Node joined by the machine's uid label does not make the link: only status.nodeRef does. A machine without
    // any status has not been reconciled at all: there is no wait to explain (it is "unknown").
    if (!m || r.deleting || nodeRefName(m) || !hasFields(statusOf(m))) {
      return null;
    }
    const healthy = getCondition(m, 'NodeHealthy', 'NodeReady');
    const start = (healthy && healthy.status !== 'True' ? healthy.lastTransitionTime : null) ?? r.created;
    const waited = age(ctx, r.created);

    if (waited === null || waited < ctx.config.nodeStartupTimeoutMs) {
      return null;
    }
    const machineLabel = objectLabel('machine', m);
    const gone = infrastructureFailure(r);
    const pending = gone ? null : infrastructurePending(r);
    // A server that is not ready has no agent to apply a plan yet: its infrastructure comes before the agent. A plan
    // secret known to be missing holds no plan, whatever the planner last said (it says nothing while paused).
    const family = gone ? 'infrastructure' : (pending ? 'infrastructurePending' : (r.plan.state === 'waiting-for-agent' ? 'agent' : (planSecretKnownMissing(r.objects, r.inputs) ? 'noPlanSecret' : (r.plan.state === 'no-plan' ? 'noPlan' : (r.objects.node ? 'unlinked' : 'kubelet')))));

    // The server is not ready: that, not the host's kubelet nor the cluster, is what the link waits for.
    if (pending) {
      const failed = infrastructureJobError(r, 'create');
      const job = infrastructureJobName(r);
      const hit: RuleHit = {
        args:     {
          duration: duration(waited), family, node: '-', said: pending.message ?? pending.reason ?? '-'
        },
        evidence: [
          evidence(machineLabel, 'status.nodeRef', null),
          ...conditionEvidence(machineLabel, pending),
          evidence(machineLabel, 'metadata.creationTimestamp', r.created),
        ],
        fix: failed ? [step(this.id, 'seeInfrastructure')] : [
          ...(job ? [step(this.id, 'createJob', {}, jobLogCommand(job, r.machineNamespace))] : []),
          step(this.id, 'provider'),
        ],
        since:   pending.lastTransitionTime ?? start,
        actions: [],
      };

      return hit;
    }

    // Without a plan nothing on the host was asked to start kubelet: the cluster's wait, or the missing plan secret,
    // comes first, not the host.
    if (family === 'noPlan' || family === 'noPlanSecret') {
      const secret = r.host.planSecretName ?? '?';

      return {
        args:     {
          duration: duration(waited), family, node: '-', secret
        },
        evidence: [
          evidence(machineLabel, 'status.nodeRef', null),
          ...(r.objects.planSecret ? [evidence(objectLabel('planSecret', r.objects.planSecret), `metadata.annotations[${ ANNOTATIONS.planLastUpdated }]`, null)] : []),
          ...(healthy ? conditionEvidence(machineLabel, healthy) : []),
          evidence(machineLabel, 'metadata.creationTimestamp', r.created),
        ],
        fix:     family === 'noPlan' ? [step(this.id, 'seeCluster', { cluster: r.cluster?.name ?? '?' })] : [
          step(this.id, 'planSecret', { secret }, rkeBootstrapYaml(r)),
        ],
        since:   start,
        actions: [],
      };
    }

    return {
      args:     {
        duration: duration(waited), family, node: r.objects.node ? nameOf(r.objects.node) ?? '?' : '-'
      },
      evidence: [
        evidence(machineLabel, 'status.nodeRef', null),
        evidence(machineLabel, 'spec.providerID', asString(specOf(m).providerID)),
        evidence(machineLabel, 'status.phase', r.phase),
        ...(healthy ? conditionEvidence(machineLabel, healthy) : []),
        evidence(machineLabel, 'metadata.creationTimestamp', r.created),
      ],
      fix: [
        downstreamNodesStep(r),
        ...(family === 'infrastructure' ? [step(this.id, 'seeInfrastructure')] : []),
        ...(family === 'agent' ? [step(this.id, 'seeAgent')] : []),
        kubeletStep(r, 'register'),
        step(this.id, 'machineLabel', { uid: asString(asObject(m.metadata).uid) ?? '?' }, `kubectl get nodes -l ${ sh(`rke.cattle.io/machine=${ asString(asObject(m.metadata).uid) ?? '' }`) }`),
        ...(r.os === 'windows' ? [step(this.id, 'windowsChecks')] : []),
      ],
      since:   start,
      actions: ['re-register'],
    };
  },
};

export const infrastructureMissing: Rule = {
  id:       'infrastructure-missing',
  severity: 'error',
  explains: ['waiting-for-node-ref', 'blocking-cluster-operation', 'stuck-deleting', 'node-not-ready', 'unexplained-not-ready'],
  needs:    [],
  check(r, ctx) {
    const m = r.objects.machine;

    if (!m) {
      return null;
    }
    const found = infrastructureFailure(r) ?? infrastructureObjectGone(r, ctx);

    if (!found) {
      return null;
    }
    // Read only for a finding: nearly every machine has its infrastructure.
    const ref = infrastructureRef(m);
    const infra = r.objects.infraMachine;
    // Since when: the infrastructure machine's own condition, or, where it is gone, the moment the Machine said so.
    const cond = infra ? findUnhealthyCondition(infra, (c) => c.message === found.value) : getCondition(m, 'InfrastructureReady');
    // A custom host has no VM and no pool: Rancher made its CustomMachine when the host registered, and nothing makes
    // it again. The machine is replaced by deleting it and registering the host anew.
    const custom = customHost(r);

    return {
      args:     {
        kind: ref?.kind ?? '?', name: ref?.name ?? '?', custom
      },
      evidence: [found, evidence(objectLabel('machine', m), 'spec.infrastructureRef', ref ? `${ ref.kind ?? '?' } ${ ref.name }` : null)],
      fix:      custom === 'yes' ? [
        step(this.id, 'checkHost', { node: r.nodeName ?? '-' }),
        // A host that still runs serves its workloads: its deletion is planned, not the first thing done.
        acting('delete-machine', step(this.id, 'deleteCustom', { running: r.objects.node && isTrue(nodeReadyCondition(r.objects.node)) ? 'yes' : 'no' },
          kubectlMachine(r, 'delete', '--wait=false'))),
        acting('remove-finalizers', step(this.id, 'ifStuckCustom')),
        acting('re-register', step(this.id, 'reRegister')),
      ] : [
        step(this.id, 'checkProvider', { name: ref?.name ?? '?' }),
        step(this.id, 'restoreOrReplace'),
        acting('delete-machine', step(this.id, 'deleteMachine', {}, kubectlMachine(r, 'delete', '--wait=false'))),
        acting('remove-finalizers', step(this.id, 'ifStuck')),
      ],
      since:   (cond && cond.status !== 'True' ? cond.lastTransitionTime : null) ?? r.created,
      actions: custom === 'yes' ? ['re-register'] : [],
    };
  },
};

export const nodeNameMismatch: Rule = {
  id:       'node-name-mismatch',
  severity: 'warning',
  explains: ['waiting-for-node-ref', 'provider-id-missing'],
  needs:    ['nodes'],
  check(r, ctx) {
    const joined = r.objects.node;

    // A Node joined by the machine's uid label while the machine has no node ref may still be the one misnamed.
    if (!r.objects.machine || r.deleting || (joined && nodeRefName(r.objects.machine))) {
      return null;
    }
    const expected = expectedNodeName(r);

    if (!expected) {
      return null;
    }
    const lower = expected.name.toLowerCase();
    const candidates = joined ? [joined].filter((n) => (nameOf(n) ?? '').toLowerCase() === lower) : ctx.nodesNamedLike(r.cluster, lower);
    const registered = candidates.find((n: KubeObject) => nameOf(n) !== expected.name);

    if (!registered && (lower === expected.name || joined)) {
      return null;
    }
    const ev: Evidence[] = [expected.from];

    if (registered) {
      ev.push(evidence(objectLabel('node', registered), 'metadata.name', nameOf(registered)));
      ev.push(evidence(objectLabel('node', registered), `metadata.labels[${ LABELS.machineUid }]`, label(registered, LABELS.machineUid)));
    }
    const registeredName = registered ? nameOf(registered) : null;
    const host = registeredName ? r.related.find((x) => x.sameHost && x.node === registeredName && !x.machine) : undefined;

    // The Node under the lower-case name is this very host: re-registering under that name changes nothing and
    // removing the Node removes the host. What is missing is the machine's label on it, by which Rancher finds it.
    if (registered && host) {
      const uid = asString(asObject(r.objects.machine.metadata).uid) ?? '';
      const shared = host.shared[0];

      return {
        args:     { expected: expected.name, registered: registeredName ?? '?' },
        evidence: withSharedEvidence(ev, host),
        fix:      [
          step(this.id, 'sameHostRegistered', {
            node: registeredName ?? '?', certainty: host.sameHost ?? 'likely', signal: shared?.signal ?? '-', value: shared?.value ?? '-'
          }),
          ...(label(registered, LABELS.machineUid) ? [] : [
            step(this.id, 'labelNode', { node: registeredName ?? '?', uid }, kubectl('label', 'node', [registeredName], { after: [sh(`${ LABELS.machineUid }=${ uid }`)] })),
          ]),
        ],
        since:   r.created,
        actions: [],
      };
    }

    // The Node under the lower-case name carries this machine's label: it is the machine's own Node, joined to it
    // already. Re-registering or removing it would undo what works; Cluster API lacks only its providerID.
    if (registered && registered === joined) {
      return {
        args:     { expected: expected.name, registered: registeredName ?? '?' },
        evidence: ev,
        fix:      [step(this.id, 'ownNode', { node: registeredName ?? '?', label: `${ LABELS.machineUid }=${ label(registered, LABELS.machineUid) ?? '?' }` })],
        since:    r.created,
        actions:  [],
        explains: ['waiting-for-node-ref'],
      };
    }

    return {
      args:     { expected: expected.name, registered: registered ? nameOf(registered) ?? '?' : lower },
      evidence: ev,
      fix:      [
        step(this.id, 'kubernetesLowercases', { lower }),
        acting('re-register', step(this.id, 'reRegisterLower', { lower }, r.os === 'windows' ? `$env:CATTLE_NODE_NAME = '${ lower.replace(/'/g, "''") }'` : undefined)),
        ...(registered ? [step(this.id, 'removeStaleNode', { node: nameOf(registered) ?? '?' })] : []),
      ],
      since:   r.created,
      actions: ['re-register'],
    };
  },
};

export const orphanNode: Rule = {
  id:       'orphan-node',
  severity: 'warning',
  needs:    ['machines'],
  check(r, ctx) {
    const n = r.objects.node;

    if (!n || r.objects.machine || !r.cluster || !ctx.clustersWithMachines.has(r.cluster) || !formerMachineOf(n) || explainedByNameMismatch(r, ctx)) {
      return null;
    }
    const nodeLabel = objectLabel('node', n);
    const annotated = annotation(n, ANNOTATIONS.capiMachine);
    const uid = label(n, LABELS.machineUid);
    const host = sameHostWith(r, 'machine');
    const shared = host?.shared[0];
    const ev = [
      evidence(nodeLabel, `metadata.annotations[${ ANNOTATIONS.capiMachine }]`, annotated),
      evidence(nodeLabel, `metadata.labels[${ LABELS.machineUid }]`, uid),
      evidence(nodeLabel, 'metadata.creationTimestamp', r.created),
    ];

    // Another machine is this host: stopping its agent or deleting its Node would undo that machine's plan. One plan
    // for both: settle that machine, then register the host again.
    if (host && host.machine) {
      const args = {
        other: host.machine, certainty: host.sameHost ?? 'likely', signal: shared?.signal ?? '-', value: shared?.value ?? '-'
      };

      return {
        args:     { machine: annotated ?? uid ?? '-', ...args },
        evidence: withSharedEvidence(ev, host),
        fix:      [
          step(this.id, 'sameHostAs', args),
          step(this.id, 'settleOther', { other: host.machine }),
          acting('re-register', step(this.id, 'reRegisterHost', { other: host.machine })),
        ],
        since:   r.created,
        actions: ['re-register'],
      };
    }

    return {
      args:     { machine: annotated ?? uid ?? '-', other: '-' },
      evidence: ev,
      fix:      [
        step(this.id, 'decide'),
        step(this.id, 'keep'),
        step(this.id, 'stopAgent', {}, r.os === 'windows' ? STOP_HOST_SERVICES_WINDOWS : STOP_HOST_SERVICES),
        step(this.id, 'deleteNode', {}, kubectl('delete', 'node', [nameOf(n)])),
        step(this.id, 'sameName'),
      ],
      since:   r.created,
      actions: ['re-register'],
    };
  },
};

export const nodeMissing: Rule = {
  id:       'node-missing',
  severity: 'error',
  explains: ['waiting-for-node-ref', 'blocking-cluster-operation', 'machine-signal'],
  needs:    ['nodes'],
  check(r, ctx): RuleHit | null {
    const m = r.objects.machine;

    if (!m || r.objects.node || r.deleting) {
      return null;
    }
    const ref = nodeRefName(m);
    const healthy = getCondition(m, 'NodeHealthy', 'NodeReady');
    const goneByCondition = !!healthy && healthy.status !== 'True' && /NodeNotFound|NodeDeleted/.test(healthy.reason ?? '');

    if (!ref && !goneByCondition) {
      return null;
    }
    // A Node of that name is there but carries another machine's rke.cattle.io/machine label: the host was
    // registered again as that machine, and this machine's own Node is gone.
    const takenBy = ref ? ctx.machineOfNode(r.cluster, ref) : null;

    if (r.inputs.nodes !== 'ok' && !goneByCondition && !takenBy) {
      return null;
    }
    const machineLabel = objectLabel('machine', m);
    // Rancher deletes by itself only custom machines whose Node is gone (capr/unmanaged: CustomMachine, NodeDeleted).
    const autoCleanup = customHost(r) === 'yes' ? [
      step(this.id, 'autoCleanup', { cluster: r.cluster?.name ?? '?' }, r.cluster?.namespace ? kubectl('annotate', 'clusters.provisioning.cattle.io', [r.cluster.name], { namespace: r.cluster.namespace, after: ['rke.cattle.io/delete-missing-custom-machines-after=1h'] }) : undefined),
    ] : [];

    if (takenBy && ref) {
      const holder = ctx.nameClaims(r.cluster, ref.toLowerCase()).find((c) => c.linked && c.record.machineName === takenBy)?.record;
      const node = holder?.objects.node;

      return {
        args:     {
          node: ref, takenBy, taken: 'yes'
        },
        evidence: [
          evidence(machineLabel, 'status.nodeRef.name', ref),
          ...(node ? [evidence(objectLabel('node', node), `metadata.labels[${ LABELS.machineUid }]`, label(node, LABELS.machineUid))] : []),
          ...(holder?.objects.machine ? [evidence(objectLabel('machine', holder.objects.machine), 'metadata.uid', holder.objects.machine.metadata?.uid ?? null)] : []),
          evidence(machineLabel, 'metadata.uid', m.metadata?.uid ?? null),
          ...(healthy ? conditionEvidence(machineLabel, healthy) : []),
        ],
        fix: [
          step(this.id, 'takenOver', { node: ref, takenBy }, kubectl('get', 'nodes', [ref], { flags: ['-o', 'wide', '--show-labels'] })),
          step(this.id, 'leftover', { takenBy }, kubectlMachine(r, 'delete', '--wait=false')),
          ...autoCleanup,
        ],
        since:   (goneByCondition ? healthy?.lastTransitionTime : null) ?? null,
        actions: [],
      };
    }

    return {
      args:     { node: ref ?? '?', taken: 'no' },
      evidence: [
        evidence(machineLabel, 'status.nodeRef.name', ref),
        ...(healthy ? conditionEvidence(machineLabel, healthy) : []),
      ],
      fix: [
        ...findHostSteps(r).slice(0, 1),
        kubeletStep(r, 'deleted'),
        acting('delete-machine', step(this.id, 'hostGone', {}, kubectlMachine(r, 'delete', '--wait=false'))),
        ...autoCleanup,
      ],
      since:   (goneByCondition ? healthy?.lastTransitionTime : null) ?? null,
      actions: [],
    };
  },
};

/** What a Node's Ready says is wrong: who stopped, or which of the kubelet's own checks fails. */
export type NotReadyKind = 'unreachable' | 'shutdown' | 'network' | 'runtime' | 'capacity' | 'storage' | 'other';

/**
 * Why a Node is not Ready, as its writers say it. The node lifecycle controller (kube-controller-manager) marks it
 * Unknown with NodeStatusUnknown, "Kubelet stopped posting node status." (NodeStatusNeverUpdated when it never did).
 * The kubelet marks it False with KubeletNotReady and every error of its checks (pkg/kubelet/nodestatus/setters.go
 * ReadyCondition), one alone or all of them as "[a, b, …]":
 * - the shutdown manager: "node is shutting down" (pkg/kubelet/nodeshutdown, Linux and Windows);
 * - the network: "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:…
 *   cni plugin not initialized" (the CNI is not up);
 * - the runtime: "PLEG is not healthy: …", "container runtime is down", "container runtime not ready: …";
 * - the capacity cAdvisor reads: "missing node capacity for resources: ephemeral-storage" ("Missing …" before 1.19);
 * - storage: "CSINode is not yet initialized" (pkg/volume/csi, until the kubelet has registered its CSINode);
 * - "container runtime status check may not have completed yet": the kubelet has not finished starting, which the
 *   other errors of the same message explain when there are any.
 * The first in that order names the kind; the others stay in the evidence, which quotes the message whole.
 */
export function notReadyKind(ready: Condition): NotReadyKind {
  const text = `${ ready.reason ?? '' } ${ ready.message ?? '' }`;

  if (ready.status === 'Unknown' || /\bNodeStatus(Unknown|NeverUpdated)\b/.test(text)) {
    return 'unreachable';
  }
  if (/\bnode is shutting down\b/i.test(text)) {
    return 'shutdown';
  }
  if (/\bnetwork not ready\b|NetworkPluginNotReady|cni plugin not initialized/i.test(text)) {
    return 'network';
  }
  if (/PLEG is not healthy|container runtime is down|container runtime not ready/i.test(text)) {
    return 'runtime';
  }
  if (/missing node capacity for resources/i.test(text)) {
    return 'capacity';
  }
  if (/CSINode is not yet initialized/i.test(text)) {
    return 'storage';
  }

  return /container runtime status check/i.test(text) ? 'runtime' : 'other';
}

/** The step a kind of not-ready calls for: where to look, on the cluster or the host, and what for. */
function notReadyStep(r: NodeRecord, node: KubeObject, kind: NotReadyKind) {
  const d = distributionOf(r);

  switch (kind) {
  case 'network':
    return step('node-not-ready', 'network', {}, podsOnNode(nameOf(node)));
  case 'shutdown':
    return step('node-not-ready', 'shutdown', {}, r.os === 'windows' ? undefined : 'systemctl list-jobs --no-pager');
  case 'capacity':
    // cAdvisor's errors, and the kubelet's event when it read a filesystem of no size ("invalid capacity 0 on image filesystem").
    return step('node-not-ready', 'capacity', {}, kubeletLogSearch(r, 'cadvisor|cAdvisor|capacity'));
  case 'storage':
    // pkg/volume/csi csi_plugin.go: "Failed to initialize CSINode", and why.
    return step('node-not-ready', 'storage', {}, kubeletLogSearch(r, 'CSINode'));
  case 'runtime':
    return r.os === 'windows' ? null : step('node-not-ready', 'runtime', { services: servicesSaid(r) }, crictl(d, 'info'));
  default:
    return null;
  }
}

export const nodeNotReady: Rule = {
  id:       'node-not-ready',
  severity: 'error',
  explains: ['machine-signal', 'blocking-cluster-operation', 'probes-failing'],
  needs:    [],
  check(r, ctx) {
    const n = r.objects.node;

    // A Ready Node (nearly every one) is settled without making its condition.
    const said = n ? conditionStatus(n, 'Ready') : null;
    const ready = n && said !== null && said !== 'True' ? nodeReadyCondition(n) : null;

    if (!n || !ready) {
      return null;
    }
    const notReadyFor = age(ctx, ready.lastTransitionTime);

    if (notReadyFor !== null && notReadyFor < ctx.config.nodeNotReadyTimeoutMs) {
      return null;
    }
    const nodeLabel = objectLabel('node', n);
    const pressure = conditions(n).filter((c) => c.type !== 'Ready' && c.status === 'True');
    const kind = notReadyKind(ready);
    const kindStep = notReadyStep(r, n, kind);
    const hostStep = step(this.id, 'resources', { pressure: pressure.length > 0 ? 'yes' : 'no' });

    return {
      args:     {
        duration: duration(notReadyFor), reason: ready.reason ?? '?', kind
      },
      evidence: [...conditionEvidence(nodeLabel, ready), ...pressure.flatMap((c) => conditionEvidence(nodeLabel, c))],
      // A kubelet that stopped reporting wrote nothing to describe: the node lifecycle controller set every condition
      // to Unknown, as the evidence shows. Whether the host is up comes first, as in the cluster's own plan when no
      // control plane is Ready (the Kubernetes API the describe would ask may be down with it).
      fix:      kind === 'unreachable' ? [hostStep, kubeletStep(r, 'ready')] : [
        commonStep('describeNode', {}, kubectl('describe', 'node', [nameOf(n)])),
        ...(kindStep ? [kindStep] : []),
        kubeletStep(r, 'ready'),
        // A host on its way down has nothing to check but what holds its shutdown.
        ...(kind === 'shutdown' ? [] : [hostStep]),
      ],
      since:   ready.lastTransitionTime,
      actions: [],
    };
  },
};

/** The kubelet's own words when it cannot write its Node's status (pkg/kubelet/kubelet_node_status.go). */
const NODE_STATUS_ERRORS = 'Error updating node status|Unable to update node status';
/**
 * The kubelet's words when it cannot renew its Lease (k8s.io/component-helpers/apimachinery/lease/controller.go,
 * "failed"/"Failed" by version): "failed to update lease using latest lease, fallback to ensure lease", "failed 5
 * attempts to update lease", "Failed to ensure lease exists, will retry", "Will retry updating lease".
 */
const LEASE_ERRORS = 'ailed to update lease|ailed [0-9]+ attempts to update lease|ailed to ensure lease|etry updating lease';

/**
 * A Node that says Ready from a status nothing has written for longer than a kubelet ever leaves it. Kubelet writes
 * its status at least every 5 min and renews its Lease every 10 s; the node lifecycle controller marks the Node
 * Unknown once neither came for its grace period. Ready True and old therefore means the kubelet still renews its
 * Lease but cannot write its status, or the cluster's controllers (or this view of the cluster) stopped, as they
 * do when etcd lost its majority (rancher/rancher#13578, #20927): the Ready shown cannot be trusted either way.
 * Where the cluster's Leases were read (the tab reads them while some status is old), the Node's own Lease says
 * which: renewed, the kubelet runs and only its status writes fail; not renewed (or none), nothing reaches the
 * cluster from the host and nothing marked the Node Unknown. Rancher's copy of a Node keeps no heartbeat, so only
 * the Node itself is judged.
 */
export const nodeStatusStale: Rule = {
  id:                  'node-status-stale',
  severity:            'warning',
  needs:               ['nodes'],
  // Comparing every Node's heartbeat is what nodes-status-frozen has done, and its first step asks the cluster's own API.
  stepsTheClusterAsks: { allNodes: 'nodes-status-frozen' },
  check(r, ctx) {
    const n = r.objects.node;
    const beat = n ? staleReadyBeat(n, ctx) : null;

    if (!n || !beat) {
      return null;
    }
    const name = nameOf(n);
    const nodeLabel = objectLabel('node', n);
    const readyPath = 'status.conditions[Ready]';
    const lease = readLease(r, ctx);
    const ev = [evidence(nodeLabel, `${ readyPath }.status`, 'True'), evidence(nodeLabel, `${ readyPath }.lastHeartbeatTime`, beat)];
    const allNodes = step(this.id, 'allNodes', { cluster: r.cluster?.name ?? '?' }, `kubectl ${ NODE_HEARTBEATS }`);
    let fix;

    if (lease.state === 'unread') {
      fix = [
        step(this.id, 'lease', { node: name ?? '?' }, kubectl('get', 'lease', [name], { namespace: NODE_LEASE_NAMESPACE, flags: ['-o jsonpath=\'{.spec.renewTime}\''] })),
        step(this.id, 'kubeletLog', {}, kubeletLogSearch(r, NODE_STATUS_ERRORS)),
        allNodes,
      ];
    } else if (lease.state === 'renewed') {
      ev.push(evidence(objectLabel('lease', lease.lease), 'spec.renewTime', lease.renewTime));
      fix = [step(this.id, 'kubeletLog', {}, kubeletLogSearch(r, NODE_STATUS_ERRORS)), step(this.id, 'statusWrites', { node: name ?? '?' })];
    } else {
      ev.push(lease.state === 'missing' ? evidence(`Lease ${ NODE_LEASE_NAMESPACE }/${ name }`, 'metadata.name', null) : evidence(objectLabel('lease', lease.lease), 'spec.renewTime', lease.renewTime));
      fix = [allNodes, kubeletStep(r, 'lease'), step(this.id, 'leaseLog', {}, kubeletLogSearch(r, LEASE_ERRORS))];
    }

    return {
      args: {
        node: name ?? '?', duration: duration(age(ctx, beat)), lease: lease.state, leaseAge: lease.state === 'renewed' || lease.state === 'stopped' ? duration(lease.age) : '?'
      },
      evidence: ev,
      fix,
      since:    beat,
      actions:  [],
    };
  },
};

type HeldBack = 'clusterPaused' | 'machinePaused' | 'noOwner' | 'bootstrapPaused' | 'infrastructure';

/** The kinds of an object's owners, where it has any (an object read without them tells nothing of its owner). */
function ownerKinds(obj: KubeObject): { kinds: string[]; machine: boolean } | null {
  const refs = asArray(metadata(obj).ownerReferences).map(asObject);

  if (refs.length === 0) {
    return null;
  }

  return {
    kinds:   refs.map((ref) => asString(ref.kind) ?? '?'),
    machine: refs.some((ref) => ref.kind === 'Machine' && (asString(ref.apiVersion) ?? '').startsWith('cluster.x-k8s.io/')),
  };
}

/**
 * Whether the CAPI Cluster says its infrastructure is not provisioned, in the field its apiVersion has (v1beta2
 * status.initialization.infrastructureProvisioned, read by Rancher 2.14 on; v1beta1 status.infrastructureReady),
 * or its InfrastructureReady condition False. Null where it says neither way (a field not read is not false).
 */
function infrastructureNotProvisioned(capiCluster: KubeObject): Evidence[] | null {
  const status = statusOf(capiCluster);
  const label = describeObject('CAPI Cluster', capiCluster);
  const v1beta2 = asString(capiCluster.apiVersion) === 'cluster.x-k8s.io/v1beta2';
  const provisioned = v1beta2 ? asObject(status.initialization).infrastructureProvisioned : status.infrastructureReady;
  const condition = getCondition(capiCluster, 'InfrastructureReady');

  if (provisioned === true || (provisioned !== false && !(condition && condition.status === 'False'))) {
    return null;
  }

  return [
    ...(provisioned === false ? [evidence(label, v1beta2 ? 'status.initialization.infrastructureProvisioned' : 'status.infrastructureReady', false)] : []),
    ...(condition && condition.status === 'False' ? conditionEvidence(label, condition) : []),
  ];
}

/**
 * Why Rancher's RKEBootstrap controller has written no plan secret, where what it checks first says so
 * (pkg/controllers/capr/bootstrap GeneratingHandler), in its order, a paused CAPI Cluster first since Cluster API then
 * sets no owner either:
 * - the RKEBootstrap has no Machine among its owners: Cluster API's Machine controller makes the Machine its
 *   controller, and does not reconcile a paused Machine;
 * - the CAPI Cluster has spec.paused, or the RKEBootstrap itself carries the paused annotation (cluster-api
 *   annotations.IsPaused: the Cluster's annotation does not count here);
 * - the CAPI Cluster's infrastructure is not provisioned.
 * Null when none is seen.
 */
/** Why, with what was seen; the CAPI Cluster whose infrastructure is not provisioned comes with that reason. */
type HeldBackBy = { why: Exclude<HeldBack, 'infrastructure'>; evidence: Evidence[] } | { why: 'infrastructure'; evidence: Evidence[]; capiCluster: KubeObject };

function planSecretHeldBack(r: NodeRecord, ctx: RuleContext): HeldBackBy | null {
  const capiCluster = r.cluster ? ctx.capiObjectsOf(r.cluster).cluster : undefined;

  if (capiCluster && specOf(capiCluster).paused === true) {
    return { why: 'clusterPaused', evidence: [evidence(describeObject('CAPI Cluster', capiCluster), 'spec.paused', true)] };
  }
  const bootstrap = r.objects.bootstrap;
  const owners = bootstrap ? ownerKinds(bootstrap) : null;

  if (bootstrap && owners && !owners.machine) {
    const m = r.objects.machine as KubeObject;
    const machinePaused = annotation(m, ANNOTATIONS.capiPaused);

    return {
      why:      machinePaused === null ? 'noOwner' : 'machinePaused',
      evidence: [
        evidence(objectLabel('bootstrap', bootstrap), 'metadata.ownerReferences[].kind', owners.kinds.join(', ')),
        ...(machinePaused === null ? [] : [evidence(objectLabel('machine', m), `metadata.annotations[${ ANNOTATIONS.capiPaused }]`, machinePaused)]),
      ],
    };
  }
  const paused = bootstrap ? annotation(bootstrap, ANNOTATIONS.capiPaused) : null;

  if (bootstrap && paused !== null) {
    return { why: 'bootstrapPaused', evidence: [evidence(objectLabel('bootstrap', bootstrap), `metadata.annotations[${ ANNOTATIONS.capiPaused }]`, paused)] };
  }
  const notProvisioned = capiCluster ? infrastructureNotProvisioned(capiCluster) : null;

  return capiCluster && notProvisioned ? {
    why: 'infrastructure', evidence: notProvisioned, capiCluster
  } : null;
}

export const planSecretMissing: Rule = {
  id:       'plan-secret-missing',
  severity: 'warning',
  explains: ['waiting-for-node-ref', 'blocking-cluster-operation'],
  needs:    ['planSecrets'],
  check(r, ctx) {
    const m = r.objects.machine;

    if (!m || r.deleting || !planSecretKnownMissing(r.objects, r.inputs)) {
      return null;
    }
    const existed = age(ctx, r.created);

    if (existed === null || existed < ctx.config.agentCheckInTimeoutMs) {
      return null;
    }
    const bootstrapName = bootstrapRef(m)?.name;
    const heldBack = planSecretHeldBack(r, ctx);
    const shown = [
      evidence(`Secret ${ r.machineNamespace }/${ r.host.planSecretName }`, 'metadata.name', null),
      evidence(objectLabel('machine', m), 'spec.bootstrap.configRef.name', bootstrapName ?? null),
      ...(heldBack?.evidence ?? []),
    ];
    let fix;

    switch (heldBack?.why) {
    case 'clusterPaused':
      fix = [step(this.id, 'afterPause', { cluster: r.cluster?.name ?? '?' })];
      break;
    case 'machinePaused':
      // The same command as the machine's own paused finding: the plan asks for it once.
      fix = [step(this.id, 'resumeMachine', { machine: r.machineName ?? '?' }, resumeMachineCommand(r))];
      break;
    case 'noOwner':
      fix = [step(this.id, 'checkBootstrap', {}, rkeBootstrapYaml(r)), step(this.id, 'capiOwner', { machine: r.machineName ?? '?' }, capiControllerLog(r.machineName, '1h'))];
      break;
    case 'bootstrapPaused':
      fix = [step(this.id, 'resumeBootstrap', { bootstrap: bootstrapName ?? '?' }, kubectl('annotate', 'rkebootstraps.rke.cattle.io', [bootstrapName], { namespace: r.machineNamespace, after: [`${ ANNOTATIONS.capiPaused }-`] }))];
      break;
    case 'infrastructure': {
      const { capiCluster } = heldBack;

      fix = [
        step(this.id, 'clusterInfrastructure', { cluster: r.cluster?.name ?? '?' }, kubectl('describe', 'clusters.cluster.x-k8s.io', [nameOf(capiCluster)], { namespace: namespaceOf(capiCluster) })),
        step(this.id, 'capiLog', {}, capiControllerLog(nameOf(capiCluster), '1h')),
      ];
      break;
    }
    default:
      fix = [
        step(this.id, 'checkBootstrap', {}, rkeBootstrapYaml(r)),
        step(this.id, 'rancherLogs', {}, 'kubectl -n cattle-system logs -l app=rancher --since=1h | grep -i machine-plan'),
      ];
    }

    return {
      args:     {
        secret: r.host.planSecretName ?? '?', why: heldBack?.why ?? 'other', cluster: r.cluster?.name ?? '?', bootstrap: bootstrapName ?? '?', machine: r.machineName ?? '?'
      },
      evidence: shown,
      fix,
      since:    r.created,
      actions:  [],
    };
  },
};

export const machineMissing: Rule = {
  id:       'machine-missing',
  severity: 'warning',
  needs:    ['machines'],
  check(r, ctx) {
    if (r.objects.machine || !r.cluster || !ctx.clustersWithMachines.has(r.cluster)) {
      return null;
    }
    // A Node without a machine is an orphan when it shows it had one (orphan-node); one that never had a
    // machine (registered by another tool) is not a machine gone missing.
    if (r.objects.node || !r.machineName || ctx.hasMachine(r.machineNamespace, r.machineName)) {
      return null;
    }
    const source = r.objects.planSecret ? objectLabel('planSecret', r.objects.planSecret) : (r.objects.mgmtNode ? objectLabel('mgmtNode', r.objects.mgmtNode) : '?');
    const path = r.objects.planSecret ? `metadata.labels[${ LABELS.machineName }]` : `status.nodeAnnotations[${ ANNOTATIONS.capiMachine }]`;
    const ev = [evidence(source, path, r.machineName), evidence(`Machine ${ r.machineNamespace }/${ r.machineName }`, 'metadata.name', null)];

    return {
      args:     { machine: r.machineName ?? r.nodeName ?? '?' },
      evidence: ev,
      fix:      [
        step(this.id, 'hostState'),
        acting('re-register', step(this.id, 'reRegister')),
        step(this.id, 'cleanup', {}, r.objects.mgmtNode ? kubectl('delete', 'nodes.management.cattle.io', [nameOf(r.objects.mgmtNode)], { namespace: namespaceOf(r.objects.mgmtNode) ?? r.cluster.mgmtId }) : undefined),
      ],
      since:   r.created,
      actions: ['re-register'],
    };
  },
};
