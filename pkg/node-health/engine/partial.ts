/**
 * Inputs a user may see only part of. Steve answers a list with the objects the user may read and says nothing
 * of the others, so an object missing from such a list may exist: no finding may rest on its absence. Where one
 * would, the record gets a note saying what cannot be told, and is "unknown" unless something else is wrong.
 */
import type { InputAvailability, InputName, NodeRecord } from './types';
import type { MessageArgs } from './vocabulary';
import { bootstrapRef, formerMachineOf, infrastructureRef, nodeRefName } from './objects';

function partial(r: NodeRecord, input: InputName): boolean {
  return r.inputs?.[input] === 'partial';
}

function note(input: InputName, args: MessageArgs): { key: string; args: MessageArgs } {
  return { key: `nodeHealth.notes.partial.${ input }`, args };
}

const NONE: readonly { key: string; args: MessageArgs }[] = Object.freeze([]);
/** Per availability (one object per cluster of a diagnosis): whether any input is partial */
const anyPartial = new WeakMap<InputAvailability, boolean>();

function hasPartial(inputs: InputAvailability): boolean {
  let known = anyPartial.get(inputs);

  if (known === undefined) {
    known = Object.values(inputs).includes('partial');
    anyPartial.set(inputs, known);
  }

  return known;
}

/** The notes of a record whose judgement would rest on an object missing from a partial input. */
export function partialInputNotes(r: NodeRecord): readonly { key: string; args: MessageArgs }[] {
  if (!r.inputs || !hasPartial(r.inputs)) {
    return NONE;
  }
  const {
    machine, planSecret, infraMachine, node
  } = r.objects;
  const out: { key: string; args: MessageArgs }[] = [];

  if (machine) {
    if (!planSecret && partial(r, 'planSecrets') && bootstrapRef(machine)?.kind === 'RKEBootstrap') {
      out.push(note('planSecrets', { secret: r.host.planSecretName ?? '?' }));
    }
    const ref = !infraMachine && partial(r, 'infraMachines') ? infrastructureRef(machine) : null;

    if (ref) {
      out.push(note('infraMachines', { name: `${ ref.kind ?? '?' } ${ ref.name }` }));
    }
    const nodeRef = !node && partial(r, 'nodes') ? nodeRefName(machine) : null;

    if (nodeRef) {
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
