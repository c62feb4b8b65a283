/** Objects sorted by kind, each kind being one input of the diagnosis (machines, plan secrets, ...). */
import type { InputName, KubeObject, ObjectKind } from '../types';
import { metadata, asString } from '../fields';
import { classify } from '../objects';
import type { JoinResult } from './result';
import { machineEntry, nodeEntry } from './indexes';
import type { MachineEntry, NodeEntry, PartIndexBuilder } from './indexes';

/** What the join's pass reads of the objects as it sorts them (bucketObjects). */
export interface JoinReads {
  machines: MachineEntry[];
  nodes: NodeEntry[];
  /** null: the parts are indexed later, or taken from an earlier join (join.ts partsOf) */
  parts: PartIndexBuilder | null;
}

export interface Buckets {
  event: KubeObject[];
  job: KubeObject[];
  cluster: KubeObject[];
  machine: KubeObject[];
  planSecret: KubeObject[];
  bootstrap: KubeObject[];
  infraMachine: KubeObject[];
  mgmtNode: KubeObject[];
  node: KubeObject[];
  registrationToken: KubeObject[];
  mgmtCluster: KubeObject[];
  capiCluster: KubeObject[];
  machineHealthCheck: KubeObject[];
  machineDeployment: KubeObject[];
  machineSet: KubeObject[];
}

export const INPUT_OF_KIND: Partial<Record<ObjectKind, InputName>> = {
  machine:            'machines',
  planSecret:         'planSecrets',
  bootstrap:          'bootstraps',
  infraMachine:       'infraMachines',
  mgmtNode:           'mgmtNodes',
  node:               'nodes',
  capiCluster:        'capiClusters',
  machineHealthCheck: 'machineHealthChecks',
  machineDeployment:  'machineDeployments',
  machineSet:         'machineSets',
};

/**
 * Sorts the objects by kind. The join's own pass (`reads` given) also reads each machine's and Node's entry and
 * indexes plan secrets, bootstraps and infrastructure machines while it has each object in hand, rather than in
 * passes of their own that read every object again.
 */
export function bucketObjects(objects: unknown[], reads?: JoinReads): { buckets: Buckets; skipped: JoinResult['skipped'] } {
  const buckets: Buckets = {
    event:              [],
    job:                [],
    cluster:            [],
    machine:            [],
    planSecret:         [],
    bootstrap:          [],
    infraMachine:       [],
    mgmtNode:           [],
    node:               [],
    registrationToken:  [],
    mgmtCluster:        [],
    capiCluster:        [],
    machineHealthCheck: [],
    machineDeployment:  [],
    machineSet:         [],
  };
  const skipped: JoinResult['skipped'] = [];

  for (let i = 0; i < objects.length; i++) {
    const obj = objects[i];
    const kind = classify(obj);

    if (!kind) {
      continue;
    }
    const meta = metadata(obj);
    const name = asString(meta.name);

    if (kind !== 'registrationToken' && !name) {
      skipped.push({ object: `${ kind } (no name)`, reason: 'missing metadata.name' });
      continue;
    }
    buckets[kind].push(obj as KubeObject);
    if (!reads) {
      continue;
    }
    const parts = reads.parts;

    if (kind === 'machine') {
      reads.machines.push(machineEntry(obj as KubeObject, asString(meta.namespace), name as string));
    } else if (kind === 'node') {
      reads.nodes.push(nodeEntry(obj as KubeObject, name as string));
    } else if (parts) {
      if (kind === 'planSecret') {
        parts.addSecret(obj as KubeObject, asString(meta.namespace));
      } else if (kind === 'bootstrap') {
        parts.addBootstrap(obj as KubeObject, asString(meta.namespace), name);
      } else if (kind === 'infraMachine') {
        parts.addInfra(obj as KubeObject, asString(meta.namespace), name);
      }
    }
  }

  return { buckets, skipped };
}

/** The input an object belongs to (machines, planSecrets, ...), or null for objects that are none. */
export function inputOfObject(obj: unknown): InputName | null {
  const kind = classify(obj);

  return kind ? INPUT_OF_KIND[kind] ?? null : null;
}
