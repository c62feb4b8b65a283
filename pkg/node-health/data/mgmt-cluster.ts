/**
 * The management cluster (management.cattle.io.cluster, named by the management id c-m-xxxx): its Connected
 * and Ready conditions say whether the cluster agent is connected, which the cluster's own findings need.
 * The dashboard store holds every management cluster from the start, so it is read from there; only when the
 * store does not have it, one small GET asks Steve for it. A user who may not read it gets no finding from
 * it, never an error.
 */
import { STEVE_TYPES } from '../engine';
import type { KubeObject } from '../engine';
import type { Dispatch, RequestRecord } from './types';

/** The only parts the diagnosis reads, and what keeps the object recognisable in a bundle. */
const KEPT_PATHS = ['apiVersion', 'kind', 'metadata', 'status.conditions', 'status.connected'];
const ENVELOPE = ['id', 'type', 'apiVersion', 'kind', 'links'];

function record(value: unknown): Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, any> : {};
}

/** A copy with only the kept paths (and Steve's envelope), whether it came from the store or from Steve. */
export function trimMgmtCluster(obj: unknown): KubeObject | null {
  const src = record(obj);
  const meta = record(src.metadata);

  if (typeof meta.name !== 'string' || !meta.name) {
    return null;
  }
  const out: Record<string, any> = {};

  for (const key of ENVELOPE) {
    if (src[key] !== undefined) {
      out[key] = src[key];
    }
  }
  // Left out as the loader's requests leave them out: the API server's field records, Steve's table columns.
  out.metadata = { ...meta };
  for (const unused of ['managedFields', 'fields', 'relationships']) {
    delete out.metadata[unused];
  }
  const status = record(src.status);

  out.status = {};
  if (Array.isArray(status.conditions)) {
    out.status.conditions = status.conditions;
  }
  if (status.connected !== undefined) {
    out.status.connected = status.connected;
  }

  return out as KubeObject;
}

export function mgmtClusterUrl(mgmtId: string): string {
  return `/v1/${ STEVE_TYPES.mgmtCluster }s/${ encodeURIComponent(mgmtId) }?${ KEPT_PATHS.map((p) => `include=${ encodeURIComponent(p) }`).join('&') }`;
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
