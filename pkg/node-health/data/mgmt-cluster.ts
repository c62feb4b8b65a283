/**
 * The management cluster (management.cattle.io.cluster, named by the management id c-m-xxxx): its Connected
 * and Ready conditions say whether the cluster agent is connected, which the cluster's own findings need.
 * The dashboard store holds every management cluster from the start, so it is read from there; only when the
 * store does not have it, one small GET asks Steve for it. A user who may not read it gets no finding from
 * it, never an error.
 */
import { keepReadFields, STEVE_TYPES, steveIncludePaths } from '../engine';
import type { KubeObject } from '../engine';
import type { Dispatch, RequestRecord } from './types';

/** A copy with only what the engine reads of it (engine/read-fields.ts), whether it came from the store or from Steve. */
export function trimMgmtCluster(obj: unknown): KubeObject | null {
  const name = (obj as KubeObject | null)?.metadata?.name;

  return typeof name === 'string' && name ? keepReadFields(obj as KubeObject, 'mgmtCluster') : null;
}

function includes(): string {
  return steveIncludePaths('mgmtCluster').map((p) => `include=${ encodeURIComponent(p) }`).join('&');
}

export function mgmtClusterUrl(mgmtId: string): string {
  return `/v1/${ STEVE_TYPES.mgmtCluster }s/${ encodeURIComponent(mgmtId) }?${ includes() }`;
}

/** Every management cluster the user may see, with the same fields as one (the fleet's request). */
export function mgmtClustersUrl(): string {
  return `/v1/${ STEVE_TYPES.mgmtCluster }s?${ includes() }`;
}

/** The management cluster from Steve; none when it cannot be read (403, 404, network): its findings stay silent. */
export async function fetchMgmtCluster(dispatch: Dispatch, mgmtId: string, log: RequestRecord[]): Promise<KubeObject[]> {
  const url = mgmtClusterUrl(mgmtId);

  log.push({ input: 'mgmtCluster', url });
  try {
    const answer = await dispatch('management/request', { url, redirectUnauthorized: false });
    const obj = trimMgmtCluster(answer);

    return obj && obj.metadata.name === mgmtId ? [obj] : [];
  } catch {
    return [];
  }
}

/** The management cluster the store holds, as the loader would have received it; null when the store does not have it. */
export function mgmtClusterFromStore(getters: Record<string, any>, mgmtId: string, unwrap: (model: unknown) => unknown): KubeObject | null {
  const byId = getters['management/byId'];
  const model = typeof byId === 'function' ? byId(STEVE_TYPES.mgmtCluster, mgmtId) : null;

  return model ? trimMgmtCluster(unwrap(model)) : null;
}
