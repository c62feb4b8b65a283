/**
 * The fleet's lists that the dashboard store already holds complete: Cluster Management's cluster list loads
 * every provisioning cluster, CAPI Machine and management Node before it draws. Copies are shaped like the
 * fleet's own answers (the same fields left out, the same management Node whitelist), so a diagnosis reads the
 * same objects whichever way they came.
 */
import { STEVE_TYPES } from '../engine';
import type { KubeObject } from '../engine';
import { UNUSED_FIELD_PATHS } from '../data/requests';
import { plainCopy, storeCopies } from '../data/store-lists';
import type { StoreGetters, Unwrap } from '../data/store-lists';
import { MGMT_NODE_FLEET_FIELDS } from './requests';

const everyOne = () => true;

export type FleetStoreLists = Partial<Record<'clusters' | 'machines' | 'mgmtNodes', KubeObject[]>>;

function isRecord(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Only the given dot paths of an object, as Steve's `include` keeps them. */
export function pickPaths(raw: Record<string, any>, paths: string[]): KubeObject {
  const out: Record<string, any> = {};

  for (const p of paths) {
    const parts = p.split('.');
    let from: any = raw;

    for (const part of parts) {
      from = isRecord(from) ? from[part] : undefined;
    }
    if (from === undefined) {
      continue;
    }
    let to = out;

    for (const part of parts.slice(0, -1)) {
      to[part] = isRecord(to[part]) ? to[part] : {};
      to = to[part];
    }
    to[parts[parts.length - 1]] = from;
  }

  return out as KubeObject;
}

export function fleetStoreLists(getters: StoreGetters, unwrap: Unwrap = (m) => m): FleetStoreLists {
  const out: FleetStoreLists = {};
  const clusters = storeCopies(getters, STEVE_TYPES.cluster, unwrap, everyOne, (raw) => plainCopy(raw, UNUSED_FIELD_PATHS));
  const machines = storeCopies(getters, STEVE_TYPES.machine, unwrap, everyOne, (raw) => plainCopy(raw, UNUSED_FIELD_PATHS));
  const mgmtNodes = storeCopies(getters, STEVE_TYPES.mgmtNode, unwrap, everyOne, (raw) => {
    const picked = pickPaths(raw, MGMT_NODE_FLEET_FIELDS);

    return plainCopy(picked, UNUSED_FIELD_PATHS);
  });

  if (clusters) {
    out.clusters = clusters;
  }
  if (machines) {
    out.machines = machines;
  }
  if (mgmtNodes) {
    out.mgmtNodes = mgmtNodes;
  }

  return out;
}
