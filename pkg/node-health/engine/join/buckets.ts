/** Objects sorted by kind, each kind being one input of the diagnosis (machines, plan secrets, ...). */
import type { InputName, KubeObject, ObjectKind } from '../types';
import { nameOf } from '../fields';
import { classify } from '../objects';
import type { JoinResult } from './result';

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
  lease: KubeObject[];
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
  lease:              'leases',
  capiCluster:        'capiClusters',
  machineHealthCheck: 'machineHealthChecks',
  machineDeployment:  'machineDeployments',
  machineSet:         'machineSets',
};

export function bucketObjects(objects: unknown[]): { buckets: Buckets; skipped: JoinResult['skipped'] } {
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
    lease:              [],
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
    if (kind !== 'registrationToken' && !nameOf(obj as KubeObject)) {
      skipped.push({ object: `${ kind } (no name)`, reason: 'missing metadata.name' });
      continue;
    }
    buckets[kind].push(obj as KubeObject);
  }

  return { buckets, skipped };
}

/** The input an object belongs to (machines, planSecrets, ...), or null for objects that are none. */
export function inputOfObject(obj: unknown): InputName | null {
  const kind = classify(obj);

  return kind ? INPUT_OF_KIND[kind] ?? null : null;
}
