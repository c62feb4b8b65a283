/**
 * Inputs a user may see only part of. Steve answers a list with the objects the user may read and says nothing
 * of the others, so an object missing from such a list may exist: no finding may rest on its absence. Where one
 * would, the record gets a note saying what cannot be told, and is "unknown" unless something else is wrong.
 */
import type { InputName, MessageArgs, NodeRecord } from './types';
import { bootstrapRef, infrastructureRef, nodeRefName } from './objects';
import { formerMachineOf } from './rules/nodes';

function partial(r: NodeRecord, input: InputName): boolean {
  return r.inputs?.[input] === 'partial';
}

function note(input: InputName, args: MessageArgs): { key: string; args: MessageArgs } {
  return { key: `nodeHealth.notes.partial.${ input }`, args };
}

/** The notes of a record whose judgement would rest on an object missing from a partial input. */
export function partialInputNotes(r: NodeRecord): { key: string; args: MessageArgs }[] {
  const {
    machine, planSecret, infraMachine, node
  } = r.objects;
  const out: { key: string; args: MessageArgs }[] = [];

  if (machine) {
    if (!planSecret && partial(r, 'planSecrets') && bootstrapRef(machine)?.kind === 'RKEBootstrap') {
      out.push(note('planSecrets', { secret: r.host.planSecretName ?? '?' }));
    }
    const ref = infrastructureRef(machine);

    if (!infraMachine && ref && partial(r, 'infraMachines')) {
      out.push(note('infraMachines', { name: `${ ref.kind ?? '?' } ${ ref.name }` }));
    }
    const nodeRef = nodeRefName(machine);

    if (!node && nodeRef && partial(r, 'nodes')) {
      out.push(note('nodes', { node: nodeRef }));
    }
  } else if (partial(r, 'machines')) {
    const former = r.machineName ?? (node ? formerMachineOf(node) : null);

    if (former) {
      out.push(note('machines', { machine: former }));
    }
  }

  return out;
}
