/**
 * Rules about the providerID, the only key Cluster API links a Node to its Machine by: Rancher copies it from
 * the Ready Node that carries the machine's uid label. A Node without one (an external cloud provider that never
 * initialised it, kubelet arguments) or with a malformed one leaves the Machine waiting for its node ref while
 * the Node itself is Ready (rke2#3464, rancher#43701, rancher#50065).
 */
import type { Evidence, KubeObject, NodeRecord } from '../types';
import { nodeReadyCondition } from '../conditions';
import {
  annotation, asArray, asObject, asString, label, metadata, nameOf, specOf
} from '../fields';
import { nodeRefName, taintText } from '../objects';
import { ANNOTATIONS, LABELS } from '../vocabulary';
import { expectedNodeName } from '../expected-name';
import {
  Rule, RuleContext, age, commonStep, conditionEvidence, duration, evidence, objectLabel, sh, step
} from './rule';

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
