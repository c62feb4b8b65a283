/**
 * The tab's view of the provisioning cluster it sits on. The dashboard hands the tab a store model; the
 * engine wants a plain object, so only the Kubernetes fields are copied (no store references, no getters).
 */
import { clusterIdentityOf } from '../engine';
import type { KubeObject } from '../engine';
import type { ClusterTarget } from './types';
import { bundleViewOf } from './bundle-view';

function plain<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

/** The target last made of a store model, by its resourceVersion: the copy is made once per version of the cluster. */
const MADE = new WeakMap<object, { version: string; target: ClusterTarget }>();

/**
 * Accepts the store model or a plain object of type provisioning.cattle.io.cluster. The same model at the same
 * resourceVersion gives the same target (not to be changed): the tab, its header and the fleet ask for it often.
 */
export function clusterTarget(resource: unknown): ClusterTarget | null {
  const r = (resource ?? {}) as Record<string, any>;
  const version = typeof r.metadata?.resourceVersion === 'string' ? r.metadata.resourceVersion : null;
  const made = version && typeof resource === 'object' ? MADE.get(resource as object) : undefined;

  if (made && made.version === version) {
    return made.target;
  }
  const target = makeTarget(r);

  if (target && version) {
    MADE.set(resource as object, { version, target });
  }

  return target;
}

function makeTarget(r: Record<string, any>): ClusterTarget | null {
  const name = r.metadata?.name;
  const namespace = r.metadata?.namespace;

  if (typeof name !== 'string' || !name || typeof namespace !== 'string' || !namespace) {
    return null;
  }
  // Its links too: whether the user may update the cluster decides who is given its registration token.
  const cluster: KubeObject = plain({
    id:         r.id,
    type:       r.type,
    links:      r.links,
    apiVersion: r.apiVersion,
    kind:       r.kind,
    metadata:   r.metadata,
    spec:       r.spec,
    status:     r.status,
  });
  // Its identity is read here, once, as the engine reads it where none is given.
  const identity = clusterIdentityOf(cluster);
  const pools = identity.machineManaged ? cluster.spec.rkeConfig.machinePools : undefined;

  return {
    ...identity,
    custom:  identity.machineManaged && !(Array.isArray(pools) && pools.length > 0),
    cluster,
    bundle: bundleViewOf(cluster),
  };
}
