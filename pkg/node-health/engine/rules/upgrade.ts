/**
 * Rules about a node during a cluster upgrade or change: its kubelet still on another version than the
 * cluster's (harvester#6041, rancher#46994), and a drain or uncordon that does not finish (rancher#37503,
 * rancher#36669, rancher#48752). The planner names the machines it waits for in the cluster's conditions:
 * "draining <tier> node(s) <machines>: draining node", "uncordoning <tier> node(s) <machines>", and
 * "...: waiting for kubelet to update" / "waiting for uncordon to finish". Only stable prefixes are matched.
 */
import type { Evidence, KubeObject, NodeRecord } from '../types';
import { findUnhealthyConditionSaying, getCondition, nodeReadyCondition } from '../conditions';
import type { Condition } from '../conditions';
import {
  annotationsOf, asObject, asString, nameOf, parseTime, specOf, statusOf
} from '../fields';
import { taintOf } from './provider';
import { RESTART_CAPI_CONTROLLER } from './shared';
import { DRAIN_ANNOTATIONS } from '../objects';
import { sameRelease } from '../versions';
import { DRAIN_MESSAGE, WAITING_FOR_KUBELET } from '../signals/planner';
import {
  Rule, age, conditionEvidence, duration, evidence, objectLabel, podsOnNode, sh, step
} from './rule';
import { kubernetesServices, serviceJournal } from './host-commands';

const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

function clusterLabel(r: NodeRecord): string {
  return r.objects.cluster ? objectLabel('cluster', r.objects.cluster) : `Cluster ${ r.cluster?.name ?? '?' }`;
}

/** The planner's words about this machine, from its own Reconciled condition (a True one is passed over unread). */
function reconciledSaying(r: NodeRecord, pattern: RegExp): Condition | null {
  const m = r.objects.machine;

  return m ? findUnhealthyConditionSaying(m, pattern, 'Reconciled') : null;
}

/** The cluster's blocking message, when it names this machine and says this. */
function clusterSaying(r: NodeRecord, pattern: RegExp): boolean {
  const c = r.cluster;

  return !!c && !!r.machineName && !!r.objects.machine && c.blockingMachines.includes(r.machineName) && pattern.test(c.blockingMessage ?? '');
}

function kubeletVersionOf(obj: KubeObject | undefined): string | null {
  return obj ? asString(asObject(statusOf(obj).nodeInfo).kubeletVersion) : null;
}

/**
 * Behind only when both versions parse and name different releases; the planner's own words are read anyway.
 * Nearly always the very version wanted: equal text is the same release (or neither parses), never behind.
 */
function isBehind(v: string | null, wanted: string | null): boolean {
  return !!wanted && !!v && v !== wanted && sameRelease(v, wanted) === false;
}

export const kubeletVersionSkew: Rule = {
  id:       'kubelet-version-skew',
  severity: 'warning',
  explains: ['blocking-cluster-operation'],
  needs:    [],
  check(r, ctx) {
    if (r.deleting || (!r.objects.node && !r.objects.machine)) {
      return null;
    }
    const wanted = r.objects.cluster ? asString(specOf(r.objects.cluster).kubernetesVersion) : null;
    const nodeKubelet = kubeletVersionOf(r.objects.node);
    const machineKubelet = kubeletVersionOf(r.objects.machine);
    // While the cluster still rolls an upgrade out, nodes behind it are only queued: the planner names the one it waits for.
    const settled = !r.cluster?.blockingMessage;
    // The Node already runs the wanted version but the Machine's copy does not: Cluster API no longer sees the
    // downstream Nodes (capi-controller-manager "Failed to watch *v1.Node ... Unauthorized"). That is no queue,
    // whatever else the cluster waits for (rancher#53343: every Machine's copy a release behind while Rancher waits).
    const stale = !!nodeKubelet && !isBehind(nodeKubelet, wanted) && isBehind(machineKubelet, wanted);
    const lagging = stale || (settled && (isBehind(nodeKubelet, wanted) || isBehind(machineKubelet, wanted)));
    const named = clusterSaying(r, WAITING_FOR_KUBELET);
    const reconciled = lagging || named || !settled ? reconciledSaying(r, WAITING_FOR_KUBELET) : null;

    if (!reconciled && !named && !lagging) {
      return null;
    }
    const updated = r.objects.cluster ? getCondition(r.objects.cluster, 'Updated') : null;
    const clusterSince = reconciled?.lastTransitionTime ?? r.cluster?.blockingSince ?? updated?.lastTransitionTime ?? null;
    // A copy is stale from when the Node came back on its new version at the earliest: its Ready's last transition.
    const since = stale ? laterOf(clusterSince, r.objects.node ? nodeReadyCondition(r.objects.node)?.lastTransitionTime ?? null : null) : clusterSince;
    const waited = age(ctx, since);

    if (waited !== null && waited < ctx.config.upgradeTimeoutMs) {
      return null;
    }
    const ev: Evidence[] = [evidence(clusterLabel(r), 'spec.kubernetesVersion', wanted)];

    if (r.objects.node) {
      ev.push(evidence(objectLabel('node', r.objects.node), 'status.nodeInfo.kubeletVersion', nodeKubelet));
    }
    if (r.objects.machine) {
      ev.push(evidence(objectLabel('machine', r.objects.machine), 'status.nodeInfo.kubeletVersion', machineKubelet));
    }
    if (reconciled && r.objects.machine) {
      ev.push(...conditionEvidence(objectLabel('machine', r.objects.machine), reconciled));
    } else if (named && r.cluster) {
      ev.push(evidence(clusterLabel(r), `status.conditions[${ r.cluster.blockingCondition }].message`, r.cluster.blockingMessage));
    }

    const versions = step(this.id, 'versions', {}, 'kubectl get nodes -o wide');
    const restartCapi = step(this.id, 'restartCapi', { stale: stale ? 'yes' : 'no' }, RESTART_CAPI_CONTROLLER);
    const hostVersion = step(this.id, 'hostVersion', {}, r.os === 'windows' ? undefined : serviceJournal(kubernetesServices(r), '--since -1h --no-pager | tail -n 100'));
    const helmJobs = step(this.id, 'helmJobs', {}, 'kubectl -n kube-system get jobs,pods -l helmcharts.helm.cattle.io/chart');

    return {
      args: {
        wanted: wanted ?? '?', kubelet: nodeKubelet ?? machineKubelet ?? '?', machineKubelet: machineKubelet ?? '?', stale: stale ? 'yes' : 'no', duration: duration(waited)
      },
      evidence: ev,
      // A stale Machine copy is Cluster API's watch: the Node shows the upgrade ran, so the host and the chart jobs have
      // nothing to tell. Otherwise the host comes first.
      fix:      stale ? [versions, restartCapi] : [versions, hostVersion, helmJobs, restartCapi],
      since,
      actions:  [],
    };
  },
};

/** The later of two times; either one when the other cannot be read. */
function laterOf(a: string | null, b: string | null): string | null {
  const ta = parseTime(a);
  const tb = parseTime(b);

  return ta === null ? b : (tb === null || ta >= tb ? a : b);
}

const NO_ANNOTATIONS: readonly [string, string][] = Object.freeze([]);

/** Rancher's drain annotations on an object; nearly every object has none, and then nothing is allocated. */
function drainAnnotations(obj: KubeObject | undefined): readonly [string, string][] {
  const annotations = obj ? annotationsOf(obj) : null;
  let out: [string, string][] | null = null;

  for (const key of DRAIN_ANNOTATIONS) {
    const value = annotations?.[key];

    if (typeof value === 'string' && value !== '') {
      (out ??= []).push([key, value]);
    }
  }

  return out ?? NO_ANNOTATIONS;
}

export const drainStuck: Rule = {
  id:       'drain-stuck',
  severity: 'warning',
  explains: ['blocking-cluster-operation', 'stuck-deleting'],
  needs:    [],
  check(r, ctx) {
    const n = r.objects.node;

    // A drain during deletion is the deletion rules' business.
    if (r.deleting || (!n && !r.objects.machine)) {
      return null;
    }
    const cordoned = !!n && specOf(n).unschedulable === true;
    const named = clusterSaying(r, DRAIN_MESSAGE);
    const reconciled = cordoned || named || r.cluster?.blockingMessage ? reconciledSaying(r, DRAIN_MESSAGE) : null;

    // Rancher's annotations alone never make a finding (see below): they are read only for one that may be.
    if (!cordoned && !named && !reconciled) {
      return null;
    }
    const annotations = [...drainAnnotations(r.objects.planSecret), ...drainAnnotations(r.objects.machine)];
    const byRancher = !!reconciled || named || annotations.length > 0;
    const taint = n ? taintOf(n, UNSCHEDULABLE_TAINT) : null;
    const since = asString(taint?.timeAdded) ?? reconciled?.lastTransitionTime ?? (named ? r.cluster?.blockingSince ?? null : null);
    const waited = age(ctx, since);

    // Without a time only Rancher's own words can say it lasts: its annotations are also there during a drain that goes well.
    if (waited === null ? !(reconciled || named) : waited < ctx.config.drainTimeoutMs) {
      return null;
    }
    const ev: Evidence[] = [];

    if (n) {
      const nodeLabel = objectLabel('node', n);

      ev.push(evidence(nodeLabel, 'spec.unschedulable', cordoned));
      if (taint) {
        ev.push(evidence(nodeLabel, `spec.taints[${ UNSCHEDULABLE_TAINT }].timeAdded`, asString(taint.timeAdded)));
      }
    }
    if (reconciled && r.objects.machine) {
      ev.push(...conditionEvidence(objectLabel('machine', r.objects.machine), reconciled));
    }
    if (named && r.cluster) {
      ev.push(evidence(clusterLabel(r), `status.conditions[${ r.cluster.blockingCondition }].message`, r.cluster.blockingMessage));
    }
    const annotated = r.objects.planSecret ? objectLabel('planSecret', r.objects.planSecret) : objectLabel('machine', r.objects.machine as KubeObject);

    for (const [key, value] of annotations) {
      ev.push(evidence(annotated, `metadata.annotations[${ key }]`, value));
    }
    const node = n ? nameOf(n) : r.nodeName;
    const uncordon = /uncordon/i.test(`${ reconciled?.message ?? '' } ${ named ? r.cluster?.blockingMessage ?? '' : '' }`);

    return {
      // Cordoned by hand with nothing of Rancher's behind it: no drain to unblock, but the node takes no new pod
      // and a Ready row must not hide that.
      args:     {
        node: node ?? '?', duration: duration(waited), byRancher: byRancher ? 'yes' : 'no', uncordon: uncordon ? 'yes' : 'no'
      },
      evidence: ev,
      // A drain of Rancher's is unblocked at its pods and its upgrade options, and Rancher uncordons the node once it has
      // changed it: an uncordon by hand while it still drains lets new pods onto the node it empties (and Rancher cordons
      // it again), so it is offered only where Rancher waits for its own uncordon. A cordon by hand has no drain to
      // unblock: who set it says whether it may be lifted.
      fix:      byRancher ? [
        step(this.id, 'pods', {}, n ? podsOnNode(nameOf(n)) : undefined),
        step(this.id, 'budgets', {}, 'kubectl get poddisruptionbudgets -A'),
        step(this.id, 'options', { cluster: r.cluster?.name ?? '?' }),
        ...(uncordon ? [step(this.id, 'uncordon', {}, n ? `kubectl uncordon ${ sh(nameOf(n)) }` : undefined)] : []),
      ] : [
        step(this.id, 'whoCordoned', {}, n ? `kubectl get node ${ sh(nameOf(n)) } --show-managed-fields -o yaml` : undefined),
        step(this.id, 'uncordon', {}, n ? `kubectl uncordon ${ sh(nameOf(n)) }` : undefined),
      ],
      since,
      actions: [],
    };
  },
};
