/**
 * A fleet: many synthetic custom clusters (`large`, a few percent of each cluster's workers broken across the
 * failure families), generated rather than stored, spread over two fleet workspaces. For the fleet view, its
 * benchmark and the embedded Rancher API (`fleet-<clusters>` or `fleet-<clusters>x<nodes>`, e.g. fleet-200x50).
 */
import { large, LargeOptions } from './catalog';
import type { FailureFamily, KubeObject, Scenario } from './types';

export const FLEET_WORKSPACES = ['fleet-default', 'fleet-edge'] as const;

export interface FleetOptions extends Omit<LargeOptions, 'cluster' | 'seed'> {
  /** nodes per cluster (default 50) */
  nodesPerCluster?: number;
}

/** Cluster i of a fleet: its name, management id and host prefix; every fifth lives in the second workspace. */
export function fleetClusterIdentity(i: number): { name: string; mgmtId: string; namespace: string; hostPrefix: string } {
  const n = String(i + 1).padStart(3, '0');

  return {
    name:       `fleet-${ n }`,
    mgmtId:     `c-m-flt${ String(i + 1).padStart(5, '0') }`,
    namespace:  FLEET_WORKSPACES[i % 5 === 4 ? 1 : 0],
    hostPrefix: `f${ n }`,
  };
}

function workspaceObjects(name: string, now: string): KubeObject[] {
  const meta = (kind: string) => ({
    name, uid: `fleet-${ kind.toLowerCase() }-${ name }`, resourceVersion: '1', creationTimestamp: now
  });

  return [
    {
      apiVersion: 'v1', kind: 'Namespace', metadata: { ...meta('Namespace'), labels: { 'kubernetes.io/metadata.name': name, 'fleet.cattle.io/managed': 'true' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' }
    },
    {
      apiVersion: 'management.cattle.io/v3', kind: 'FleetWorkspace', metadata: meta('FleetWorkspace'), status: {}
    },
  ];
}

export function fleet(clusters: number, o: FleetOptions = {}): Scenario {
  if (!Number.isInteger(clusters) || clusters < 1) throw new Error(`fleet(): cluster count must be a positive integer, got ${ clusters }`);
  const nodes = o.nodesPerCluster ?? 50;
  const parts = Array.from({ length: clusters }, (_, i) => large(nodes, {
    ...o, seed: `fleet:${ i }`, cluster: fleetClusterIdentity(i)
  }));
  const now = parts[0].now;
  const expected: Record<string, FailureFamily[]> = {};
  const downstream: Record<string, KubeObject[]> = {};

  for (const p of parts) {
    Object.assign(downstream, p.downstream);
    for (const [name, families] of Object.entries(p.expected)) expected[name] = families;
  }

  return {
    name:         `fleet-${ clusters }x${ nodes }`,
    title:        `Fleet of ${ clusters } clusters of ${ nodes } nodes`,
    description:  `${ clusters } RKE2 custom clusters of ${ nodes } nodes in ${ FLEET_WORKSPACES.join(' and ') }, a few percent of each cluster's workers broken.`,
    now,
    secretMarker: parts[0].secretMarker,
    clusters:     parts.flatMap((p) => p.clusters),
    objects:      [...(clusters > 4 ? workspaceObjects(FLEET_WORKSPACES[1], now) : []), ...parts.flatMap((p) => p.objects)],
    downstream,
    expected,
  };
}

const FLEET_NAME = /^fleet-(\d+)(?:x(\d+))?$/;

export function isFleetScenario(name: string): boolean {
  return FLEET_NAME.test(name);
}

/** `fleet-<clusters>` (50 nodes each) or `fleet-<clusters>x<nodes>`. */
export function buildFleetScenario(name: string, o: Omit<FleetOptions, 'nodesPerCluster'> = {}): Scenario {
  const m = FLEET_NAME.exec(name);

  if (!m) throw new Error(`unknown fleet scenario "${ name }" (fleet-<clusters> or fleet-<clusters>x<nodes>)`);

  return fleet(Number(m[1]), { ...o, nodesPerCluster: m[2] ? Number(m[2]) : undefined });
}
