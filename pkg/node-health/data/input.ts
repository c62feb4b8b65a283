/**
 * What the engine diagnoses, built here once per load for every view: the cluster's tab (one cluster, its
 * downstream Nodes), the fleet page (every cluster, Rancher's copies of the Nodes) and the command line (either,
 * from Rancher). The clusters' identity is in the targets, every object once in the list; nothing of it is
 * derived again downstream.
 */
import { diagnose } from '../engine';
import type {
  ClusterIdentity, DiagnoseOptions, DiagnosisReport, EngineConfig, HostReport, InputAvailability, KubeObject, RecordScope
} from '../engine';
import type { ClusterTarget, LoadResult } from './types';

export interface DiagnosisInput {
  /** the clusters, as read: their identity (name, namespace, management id, whether Rancher provisions their machines) goes to the engine as it is */
  targets: ClusterTarget[];
  /** every object of the load, each once, the clusters' own among them */
  objects: KubeObject[];
  availability: InputAvailability;
  /** the moment the load ended (epoch ms or RFC 3339): the diagnosis is made at it */
  now: number | string;
  /** the downstream Node list was not read and the Nodes are Rancher's copies (the fleet) */
  nodesLeftToTab?: boolean;
  /** one record's objects, not the whole cluster's (the record tab's load, record-load.ts) */
  scoped?: RecordScope;
}

/**
 * The moment a load is judged at: when it was read, or for a bundle served by the embedded Rancher API the moment
 * the bundle was made, so that every age reads as it did for the customer (absolute times are the bundle's own).
 */
export function judgedAt(target: Pick<ClusterTarget, 'bundle'>, load: Pick<LoadResult, 'loadedAt'>): number {
  return target.bundle?.madeAtMs ?? load.loadedAt;
}

/** One cluster's load, as its tab diagnoses it. */
export function clusterInput(target: ClusterTarget, load: Pick<LoadResult, 'objects' | 'availability' | 'loadedAt' | 'scope'>): DiagnosisInput {
  return {
    targets: [target], objects: [target.cluster, ...load.objects], availability: load.availability, now: judgedAt(target, load), ...(load.scope ? { scoped: load.scope } : {})
  };
}

/** The targets' identities as the engine takes them (DiagnoseOptions.clusters): nothing of them is read again. */
export function clusterIdentities(targets: ClusterIdentity[]): ClusterIdentity[] {
  return targets.map(({
    name, namespace, mgmtId, machineManaged
  }) => ({
    name, namespace, mgmtId, machineManaged
  }));
}

/**
 * The engine's options for an input: the targets' identities, and Nodes the objects do not place belong to the one
 * cluster's management id.
 */
export function diagnoseOptions(input: DiagnosisInput, config?: Partial<EngineConfig>, hostReports: HostReport[] = []): DiagnoseOptions {
  const only = input.targets.length === 1 ? input.targets[0] : null;

  return {
    now:            input.now,
    availability:   input.availability,
    defaultCluster: only?.mgmtId ?? undefined,
    clusters:       clusterIdentities(input.targets),
    config,
    hostReports,
    ...(input.nodesLeftToTab ? { nodesLeftToTab: true } : {}),
    ...(input.scoped ? { scoped: input.scoped } : {}),
  };
}

export function diagnoseInput(input: DiagnosisInput, config?: Partial<EngineConfig>, hostReports: HostReport[] = []): DiagnosisReport {
  return diagnose(input.objects, diagnoseOptions(input, config, hostReports));
}
