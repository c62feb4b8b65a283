/**
 * The links between a record's objects, in the order an agent's node comes to be: Machine, plan secret,
 * bootstrap, infrastructure machine, management Node, downstream Node.
 */
import type {
  ChainLink, InputAvailability, InputName, KubeObject, NodeRecord
} from './types';
import { asObject, nameOf, namespaceOf, statusOf } from './fields';
import {
  STEVE_TYPES, bootstrapRef, failureMessage, infrastructureRef, nodeRefName, saysInfrastructureGone
} from './objects';
import { findUnhealthyCondition, nodeReadyCondition } from './conditions';
import { absenceUnknown } from './join';

/** Every link has the same fields in the same order: one object shape, however many records there are. */
function link(
  kind: ChainLink['kind'], state: ChainLink['state'], obj: KubeObject | undefined, type: string | null,
  detail: string | null = null, clusterId: string | null = null, name: string | null = null, namespace: string | null = null
): ChainLink {
  return {
    kind,
    state,
    name:      obj ? nameOf(obj) : name,
    namespace: obj ? namespaceOf(obj) : namespace,
    type,
    clusterId,
    detail,
  };
}

function missingOr(availability: InputAvailability, input: InputName): ChainLink['state'] {
  return absenceUnknown(availability, input) ? 'unreadable' : (availability[input] === 'absent' ? 'not-loaded' : 'missing');
}

function unlinkedNode(r: NodeRecord): string | null {
  const related = r.related ?? [];
  const x = related.find((e) => e.sameHost && e.node && !e.machine) ?? related.find((e) => e.names.length > 0 && e.node && !e.machine);

  return x?.node ?? null;
}

/**
 * The chain of objects behind a record, each with its state: what the row detail draws and a bundle
 * carries. Built when asked for, from the record alone: no rule reads it, and building it for every
 * record of a large cluster was a sixth of the diagnosis.
 */
export function linkChain(r: NodeRecord): ChainLink[] {
  const o = r.objects;
  const availability = r.inputs ?? {};
  const machineManaged = r.machineManaged !== false;
  const chain: ChainLink[] = [];

  if (!machineManaged) {
    chain.push(link('machine', 'not-applicable', undefined, STEVE_TYPES.machine));
  } else if (o.machine) {
    const phase = r.phase;
    const state = phase === 'Failed' || failureMessage(o.machine) ? 'failed' : (phase === 'Running' && !r.deleting ? 'present' : 'waiting');

    chain.push(link('machine', state, o.machine, STEVE_TYPES.machine, r.deleting ? 'Deleting' : phase));
  } else {
    chain.push(link('machine', 'missing', undefined, STEVE_TYPES.machine, null, null, r.machineName, r.machineNamespace));
  }

  if (!machineManaged) {
    chain.push(link('planSecret', 'not-applicable', undefined, STEVE_TYPES.planSecret));
  } else if (o.planSecret) {
    const state = r.plan.state === 'in-sync' ? 'present' : (r.plan.state === 'apply-failed' ? 'failed' : (r.plan.state === 'unknown' ? 'present' : 'waiting'));

    chain.push(link('planSecret', state, o.planSecret, STEVE_TYPES.planSecret, r.plan.message ?? r.plan.state));
  } else {
    chain.push(link('planSecret', missingOr(availability, 'planSecrets'), undefined, STEVE_TYPES.planSecret, null, null, r.host.planSecretName, r.machineNamespace));
  }

  if (machineManaged && o.machine) {
    const ref = bootstrapRef(o.machine);

    if (o.bootstrap) {
      chain.push(link('bootstrap', 'present', o.bootstrap, STEVE_TYPES.bootstrap));
    } else if (ref && ref.kind === 'RKEBootstrap') {
      chain.push(link('bootstrap', missingOr(availability, 'bootstraps'), undefined, STEVE_TYPES.bootstrap, null, null, ref.name, r.machineNamespace));
    }
  }

  if (machineManaged && o.machine) {
    const ref = infrastructureRef(o.machine);
    const infraType = ref?.group && ref.kind ? `${ ref.group }.${ ref.kind.toLowerCase() }` : null;

    if (o.infraMachine) {
      const gone = findUnhealthyCondition(o.infraMachine, saysInfrastructureGone);
      const error = failureMessage(o.infraMachine) ?? gone?.message ?? null;
      const ready = asObject(statusOf(o.infraMachine)).ready;

      chain.push(link('infraMachine', error ? 'failed' : (ready === false ? 'waiting' : 'present'), o.infraMachine, infraType, error));
    } else if (ref) {
      chain.push(link('infraMachine', missingOr(availability, 'infraMachines'), undefined, infraType, null, null, ref.name, r.machineNamespace));
    }
  }

  const clusterId = r.cluster?.mgmtId ?? null;

  if (o.mgmtNode) {
    chain.push(link('mgmtNode', 'present', o.mgmtNode, STEVE_TYPES.mgmtNode));
  } else {
    const absent = o.node || o.machine ? missingOr(availability, 'mgmtNodes') : 'not-applicable';
    // Rancher makes its node from the cluster's Node: a machine that has no Node yet waits for both.
    const noNodeYet = !o.node && o.machine && !nodeRefName(o.machine);

    chain.push(link('mgmtNode', absent === 'missing' && noNodeYet ? 'waiting' : absent, undefined, STEVE_TYPES.mgmtNode, null, null, null, clusterId));
  }

  // A machine without its Node whose host is another record's Node, or whose finding names one: that Node, not linked.
  const unlinked = o.machine && !o.node ? unlinkedNode(r) : null;

  if (o.node) {
    const ready = nodeReadyCondition(o.node);

    chain.push(link('node', ready && ready.status !== 'True' ? 'failed' : 'present', o.node, STEVE_TYPES.node, ready ? `Ready=${ ready.status }` : null, clusterId));
  } else if (unlinked) {
    chain.push(link('node', 'unlinked', undefined, STEVE_TYPES.node, null, clusterId, unlinked));
  } else if (availability.nodes !== 'ok') {
    chain.push(link('node', missingOr(availability, 'nodes'), undefined, STEVE_TYPES.node, null, clusterId, r.nodeName));
  } else {
    chain.push(link('node', o.machine && !nodeRefName(o.machine) ? 'waiting' : 'missing', undefined, STEVE_TYPES.node, null, clusterId, r.nodeName));
  }

  return chain;
}
