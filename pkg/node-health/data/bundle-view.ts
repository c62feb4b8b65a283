/**
 * The bundle view: a diagnostics bundle served as a cluster by the embedded Rancher API (mock-rancher), to be
 * read as the customer saw it, never acted on. The embedded API says so on the provisioning and the management
 * cluster it serves for a bundle, with annotations of Node Health's own (a real Rancher never sets them): which
 * cluster the bundle is of, when and by what it was made. From them the tab judges the bundle at the moment it
 * was made, does not refresh, and offers no write and no registration command (the reason is
 * `READ_ONLY_REASON_KEY`); the cluster's other pages show the same banner (index.ts, BundlePanel).
 */

/** The annotations the embedded API sets on the clusters it serves for a bundle. */
export const BUNDLE_ANNOTATIONS = {
  /** the cluster the bundle is of, as the bundle names it */
  cluster:          'node-health/bundle-of',
  /** when the bundle was made (RFC3339): its diagnosis time */
  madeAt:           'node-health/bundle-made-at',
  /** the version of Node Health that made it, when the bundle says */
  extensionVersion: 'node-health/bundle-extension-version',
  /** the Rancher version it was made on, when the bundle says */
  rancherVersion:   'node-health/bundle-rancher-version',
  /** the bundle's file name */
  file:             'node-health/bundle-file',
} as const;

/** Why nothing can be changed in the bundle view, said wherever a write or the registration command would be. */
export const READ_ONLY_REASON_KEY = 'nodeHealth.bundleView.readOnly';

export interface BundleView {
  cluster: string;
  /** RFC3339, as the bundle says it */
  madeAt: string;
  madeAtMs: number;
  extensionVersion: string | null;
  rancherVersion: string | null;
  file: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * What an object's annotations say of the bundle it is served from; null for an object of a real cluster, and
 * for annotations that do not name a readable creation time (without it there is no moment to judge at).
 */
export function bundleViewOf(obj: unknown): BundleView | null {
  const annotations = (obj as { metadata?: { annotations?: Record<string, unknown> } } | null)?.metadata?.annotations;

  if (!annotations || typeof annotations !== 'object') {
    return null;
  }
  const madeAt = text(annotations[BUNDLE_ANNOTATIONS.madeAt]);
  const madeAtMs = madeAt ? Date.parse(madeAt) : NaN;

  if (!madeAt || Number.isNaN(madeAtMs)) {
    return null;
  }
  const name = text((obj as { metadata?: { name?: unknown } }).metadata?.name);

  return {
    cluster:          text(annotations[BUNDLE_ANNOTATIONS.cluster]) ?? name ?? '?',
    madeAt,
    madeAtMs,
    extensionVersion: text(annotations[BUNDLE_ANNOTATIONS.extensionVersion]),
    rancherVersion:   text(annotations[BUNDLE_ANNOTATIONS.rancherVersion]),
    file:             text(annotations[BUNDLE_ANNOTATIONS.file]),
  };
}

/** The annotations for a bundle, as the embedded API sets them. */
export function bundleAnnotations(view: Omit<BundleView, 'madeAtMs'>): Record<string, string> {
  const out: Record<string, string> = { [BUNDLE_ANNOTATIONS.cluster]: view.cluster, [BUNDLE_ANNOTATIONS.madeAt]: view.madeAt };

  if (view.extensionVersion) {
    out[BUNDLE_ANNOTATIONS.extensionVersion] = view.extensionVersion;
  }
  if (view.rancherVersion) {
    out[BUNDLE_ANNOTATIONS.rancherVersion] = view.rancherVersion;
  }
  if (view.file) {
    out[BUNDLE_ANNOTATIONS.file] = view.file;
  }

  return out;
}

/** Looks an object up in the dashboard's store (`management/byId`); undefined when it does not hold it. */
export type StoreLookup = (type: string, id: string) => unknown;

/**
 * The bundle a page of the dashboard shows, if any: its resource is a bundle's cluster, or belongs to one (a
 * Machine, an RKE bootstrap: Cluster API's cluster-name label in its namespace), or the page is in a bundle's
 * cluster (`/c/<management id>/…`, the cluster explorer).
 */
export function bundleOfPage(resource: unknown, params: Record<string, unknown> | undefined, byId: StoreLookup): BundleView | null {
  const lookup = (type: string, id: string) => {
    try {
      return bundleViewOf(byId(type, id));
    } catch {
      return null;
    }
  };
  const meta = (resource as { metadata?: { namespace?: unknown, labels?: Record<string, unknown> } } | null)?.metadata;
  const namespace = text(meta?.namespace);
  const clusterName = text(meta?.labels?.['cluster.x-k8s.io/cluster-name']);
  const mgmtId = text(params?.cluster);

  return bundleViewOf(resource) ??
    (namespace && clusterName ? lookup('provisioning.cattle.io.cluster', `${ namespace }/${ clusterName }`) : null) ??
    (mgmtId && mgmtId !== '_' ? lookup('management.cattle.io.cluster', mgmtId) : null);
}
