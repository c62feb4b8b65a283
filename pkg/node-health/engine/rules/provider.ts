/**
 * Rules about the providerID, the only key Cluster API links a Node to its Machine by: Rancher copies it from
 * the Ready Node that carries the machine's uid label. A Node without one (an external cloud provider that never
 * initialised it, kubelet arguments) or with a malformed one leaves the Machine waiting for its node ref while
 * the Node itself is Ready (rke2#3464, rancher#43701, rancher#50065).
 */
import type { Evidence, FixStep, KubeObject, NodeRecord } from '../types';
import { getCondition, nodeReadyCondition } from '../conditions';
import {
  annotation, asArray, asObject, asString, label, metadata, nameOf, specOf, statusOf
} from '../fields';
import { infraResource, infrastructureRef, nodeRefName, taintText } from '../objects';
import { ANNOTATIONS, LABELS } from '../vocabulary';
import { expectedNodeName } from '../expected-name';
import {
  Rule, RuleContext, age, commonStep, conditionEvidence, duration, evidence, kubectl, objectLabel, sh, step
} from './rule';
import { RESTART_CAPI_CONTROLLER, capiControllerLog, customHost } from './shared';

/**
 * The infrastructure providers whose machines Rancher gives the providerID itself (capr machinenodelookup): those of its
 * node drivers, its CustomMachine and Elemental's. Any other provider sets its machines' providerID on its own.
 */
const RANCHER_COPIES = new Set(['rke-machine.cattle.io', 'rke.cattle.io', 'elemental.cattle.io']);

/** Cluster API's own test of a providerID (noderefutil): "<cloudProvider>://<optional>/<segments>/<provider id>". */
const PROVIDER_ID = /^[^:]+:\/\/.*[^/]$/;

export const UNINITIALIZED_TAINT = 'node.cloudprovider.kubernetes.io/uninitialized';

export function providerIdProblem(value: string | null): 'missing' | 'malformed' | null {
  if (!value) {
    return 'missing';
  }

  return PROVIDER_ID.test(value) ? null : 'malformed';
}

/** A Node that another machine has: its uid label or Cluster API's annotation names someone else. */
function belongsToAnother(n: KubeObject, r: NodeRecord): boolean {
  const uid = label(n, LABELS.machineUid);
  const annotated = annotation(n, ANNOTATIONS.capiMachine);
  const ownUid = r.objects.machine ? asString(metadata(r.objects.machine).uid) : null;

  return (!!uid && uid !== ownUid) || (!!annotated && annotated !== r.machineName);
}

/** The Node registered for a machine that has no node ref: joined by its uid label, else the one with the expected name. */
export function registeredNodeOf(r: NodeRecord, ctx: Pick<RuleContext, 'nodesNamedLike'>): { node: KubeObject; by: 'label' | 'name' } | null {
  if (r.objects.node) {
    return { node: r.objects.node, by: 'label' };
  }
  const expected = expectedNodeName(r);
  const named = expected ? ctx.nodesNamedLike(r.cluster, expected.name.toLowerCase()).find((n) => !belongsToAnother(n, r)) : undefined;

  return named ? { node: named, by: 'name' } : null;
}

export function taintOf(n: KubeObject, key: string): Record<string, any> | null {
  const taints = asArray(specOf(n).taints);

  for (let i = 0; i < taints.length; i++) {
    if (asObject(taints[i]).key === key) {
      return asObject(taints[i]);
    }
  }

  return null;
}

export const providerIdMissing: Rule = {
  id:       'provider-id-missing',
  severity: 'error',
  explains: ['waiting-for-node-ref', 'blocking-cluster-operation'],
  needs:    [],
  check(r, ctx) {
    const m = r.objects.machine;

    if (!m || r.deleting || nodeRefName(m)) {
      return null;
    }
    const waited = age(ctx, r.created);

    if (waited === null || waited < ctx.config.nodeStartupTimeoutMs) {
      return null;
    }
    const registered = registeredNodeOf(r, ctx);
    const machineProviderId = asString(specOf(m).providerID);
    const machineProblem = machineProviderId ? providerIdProblem(machineProviderId) : null;

    if (!registered && !machineProblem) {
      return null;
    }
    const nodeProviderId = registered ? asString(specOf(registered.node).providerID) : null;
    const nodeProblem = registered ? providerIdProblem(nodeProviderId) : null;
    const problem = nodeProblem ?? machineProblem;

    if (!problem) {
      return null;
    }
    const machineLabel = objectLabel('machine', m);
    const ev: Evidence[] = [evidence(machineLabel, 'status.nodeRef', null), evidence(machineLabel, 'spec.providerID', machineProviderId)];
    const nodeName = registered ? nameOf(registered.node) : null;

    if (registered) {
      const nodeLabel = objectLabel('node', registered.node);
      const ready = nodeReadyCondition(registered.node);

      ev.push(
        evidence(nodeLabel, `metadata.labels[${ LABELS.machineUid }]`, label(registered.node, LABELS.machineUid)),
        evidence(nodeLabel, 'spec.providerID', nodeProviderId),
        ...(ready ? conditionEvidence(nodeLabel, ready).slice(0, 1) : []),
      );
    }

    return {
      args:     {
        problem, node: nodeName ?? '-', providerID: (nodeProblem ? nodeProviderId : machineProviderId) ?? '', duration: duration(waited)
      },
      evidence: ev,
      fix:      [
        step(this.id, 'check', {}, nodeName ? `kubectl get node ${ sh(nodeName) } -o jsonpath='{.spec.providerID}'` : undefined),
        step(this.id, 'cloudProvider', {}, 'kubectl -n kube-system get pods -o wide | grep -i cloud-controller'),
        step(this.id, 'embedded'),
        step(this.id, 'form'),
        step(this.id, 'reRegister'),
      ],
      since:   r.created,
      actions: [],
    };
  },
};

export const cloudProviderUninitialized: Rule = {
  id:       'cloud-provider-uninitialized',
  severity: 'error',
  explains: ['provider-id-missing', 'waiting-for-node-ref', 'blocking-cluster-operation'],
  needs:    [],
  check(r, ctx) {
    const n = r.objects.node ?? (r.objects.machine && !nodeRefName(r.objects.machine) ? registeredNodeOf(r, ctx)?.node : undefined);

    if (!n || r.deleting) {
      return null;
    }
    const taint = taintOf(n, UNINITIALIZED_TAINT);

    if (!taint) {
      return null;
    }
    const since = asString(taint.timeAdded) ?? asString(metadata(n).creationTimestamp);
    const waited = age(ctx, since);

    if (waited !== null && waited < ctx.config.nodeStartupTimeoutMs) {
      return null;
    }
    const nodeLabel = objectLabel('node', n);

    return {
      args:     { node: nameOf(n) ?? '?', duration: duration(waited) },
      evidence: [
        evidence(nodeLabel, `spec.taints[${ UNINITIALIZED_TAINT }]`, taintText(taint)),
        evidence(nodeLabel, 'spec.providerID', asString(specOf(n).providerID)),
        evidence(nodeLabel, 'metadata.creationTimestamp', asString(metadata(n).creationTimestamp)),
      ],
      fix: [
        step(this.id, 'external'),
        step(this.id, 'controllerPods', {}, 'kubectl -n kube-system get pods -o wide | grep -iE "cloud-controller|ccm"'),
        commonStep('describeNode', {}, `kubectl describe node ${ sh(nameOf(n)) }`),
        step(this.id, 'credentials'),
      ],
      since,
      actions: [],
    };
  },
};

/**
 * Where the providerID stops on its way from the Node to the Machine: Rancher copies the Ready Node's onto the
 * infrastructure machine (or the provider sets it), Cluster API copies the infrastructure machine's onto the Machine once
 * it reports itself provisioned, and then links the Node whose providerID is the Machine's. `either`: the infrastructure
 * machine could not be read; `other`: the Machine has a providerID that is not the Node's.
 */
export type LinkStop = 'infrastructure' | 'machine' | 'either' | 'capi' | 'other';

/** The infrastructure machine's word that it is provisioned: v1beta2's status.initialization.provisioned, v1beta1's status.ready. */
function provisionedEvidence(label: string, infra: KubeObject): Evidence[] {
  const status = statusOf(infra);
  const initialization = asObject(status.initialization);

  return [
    ...('provisioned' in initialization ? [evidence(label, 'status.initialization.provisioned', initialization.provisioned as Evidence['value'])] : []),
    evidence(label, 'status.ready', (status.ready ?? null) as Evidence['value']),
  ];
}

/**
 * A Ready Node that carries the machine's uid label and a providerID Cluster API takes, and still no node ref: the
 * providerID stopped on its way to the Machine (rancher#37406: Rancher's look-up refused by its own RBAC; rancher#37174 and
 * #54544: the infrastructure machine never got it). A Node without a usable providerID is provider-id-missing's, a
 * Node not Ready node-not-ready's (Rancher copies only from a Ready Node), an infrastructure machine that is gone
 * infrastructure-missing's.
 */
export const nodeNotLinked: Rule = {
  id:                  'node-not-linked',
  severity:            'error',
  explains:            ['waiting-for-node-ref', 'blocking-cluster-operation'],
  // As provider-id-missing: the fleet reads the Node's label, providerID and Ready from Rancher's copy of it.
  needs:               [],
  // Rancher's connection to the cluster and Cluster API's are the cluster's findings, asked once for every row.
  stepsTheClusterAsks: { connection: 'cluster-agent-disconnected', capiSees: 'capi-connection-down' },
  check(r, ctx) {
    const m = r.objects.machine;
    const n = r.objects.node;

    if (!m || !n || r.deleting || nodeRefName(m)) {
      return null;
    }
    const uid = asString(metadata(m).uid);
    const nodeProviderId = asString(specOf(n).providerID);
    const machineProviderId = asString(specOf(m).providerID);

    // Rancher looks the Node up by the machine's uid label alone; a providerID Cluster API refuses is provider-id-missing's.
    if (!uid || label(n, LABELS.machineUid) !== uid || providerIdProblem(nodeProviderId) || (machineProviderId && providerIdProblem(machineProviderId))) {
      return null;
    }
    const waited = age(ctx, r.created);
    const ready = nodeReadyCondition(n);
    const readyFor = ready?.status === 'True' ? age(ctx, ready.lastTransitionTime) : null;

    if (waited === null || waited < ctx.config.nodeStartupTimeoutMs || !ready || ready.status !== 'True' || (readyFor !== null && readyFor < ctx.config.nodeNotReadyTimeoutMs)) {
      return null;
    }
    const ref = infrastructureRef(m);
    const infra = r.objects.infraMachine;
    let link: LinkStop;

    if (machineProviderId) {
      link = machineProviderId === nodeProviderId ? 'capi' : 'other';
    } else if (infra) {
      link = asString(specOf(infra).providerID) ? 'machine' : 'infrastructure';
    } else if (r.inputs.infraMachines === 'ok') {
      return null;
    } else {
      link = 'either';
    }
    const kind = ref?.kind ?? asString(infra?.kind) ?? '?';
    const name = ref?.name ?? (infra ? nameOf(infra) : null) ?? '?';
    const copier = RANCHER_COPIES.has(ref?.group ?? 'rke-machine.cattle.io') ? 'rancher' : 'provider';
    const namespace = r.machineNamespace;
    const machineLabel = objectLabel('machine', m);
    const nodeLabel = objectLabel('node', n);
    const infraLabel = infra ? objectLabel('infraMachine', infra) : null;
    const linkCondition = getCondition(m, 'NodeHealthy', 'NodeReady');
    const resource = ref ? infraResource(ref) : null;
    const readInfra = resource && ref?.name ? kubectl('get', resource, [ref.name], { namespace, flags: ['-o yaml'] }) : undefined;
    const rancherLog = `kubectl -n cattle-system logs -l app=rancher --since=2h --tail=-1 | grep -F ${ sh(`${ LABELS.machineUid }=${ uid }`) }`;
    const capiLog = capiControllerLog(r.machineName, '2h');
    // Only the stage where the providerID stopped is built.
    const stepsAt = (stop: LinkStop): FixStep[] => {
      switch (stop) {
      case 'infrastructure':
        return copier === 'rancher' ? [
          step(this.id, 'rancherCopies', {
            kind, name, uid
          }, rancherLog),
          step(this.id, 'connection', { cluster: r.cluster?.name ?? '?' }),
          step(this.id, 'upgrade', { kind, name }),
        ] : [step(this.id, 'providerCopies', { kind, name }, readInfra)];
      case 'machine':
        return [step(this.id, 'provisioned', { kind, name }, readInfra), step(this.id, 'capiLog', {}, capiLog)];
      case 'either':
        return [
          step(this.id, 'readInfra', { kind, name }, readInfra),
          ...(copier === 'rancher' ? [step(this.id, 'rancherCopies', {
            kind, name, uid
          }, rancherLog)] : []),
          step(this.id, 'capiLog', {}, capiLog),
        ];
      case 'capi':
        return [step(this.id, 'capiSees', {}, capiLog), step(this.id, 'restartCapi', {}, RESTART_CAPI_CONTROLLER)];
      default:
        return [step(this.id, 'otherServer', { node: nameOf(n) ?? '?' }), step(this.id, 'replace', { custom: customHost(r), node: nameOf(n) ?? '?' })];
      }
    };
    const fix = stepsAt(link);

    return {
      args: {
        link, copier, node: nameOf(n) ?? '?', providerID: nodeProviderId ?? '', machineProviderID: machineProviderId ?? '', kind, name, duration: duration(readyFor ?? waited),
      },
      evidence: [
        evidence(nodeLabel, `metadata.labels[${ LABELS.machineUid }]`, uid),
        evidence(nodeLabel, 'spec.providerID', nodeProviderId),
        ...conditionEvidence(nodeLabel, ready),
        ...(infra && infraLabel ? [evidence(infraLabel, 'spec.providerID', asString(specOf(infra).providerID)), ...provisionedEvidence(infraLabel, infra)] : []),
        evidence(machineLabel, 'spec.providerID', machineProviderId),
        evidence(machineLabel, 'status.nodeRef', null),
        ...(linkCondition && linkCondition.status !== 'True' ? conditionEvidence(machineLabel, linkCondition) : []),
      ],
      fix,
      since:   ready.lastTransitionTime ?? r.created,
      actions: [],
    };
  },
};
