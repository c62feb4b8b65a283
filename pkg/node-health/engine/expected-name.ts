/**
 * The name a machine's host is expected to register its Node as. The join computes, per cluster, the names
 * machines without a Node expect, so that rules can tell a Node under another spelling from a stranger.
 */
import type { Evidence, KubeObject, NodeRecord } from './types';
import {
  asArray, asObject, asString, label, specOf, statusOf
} from './fields';
import { nodeRefName } from './objects';
import { LABELS } from './vocabulary';
import { evidence, objectLabel } from './evidence';

/** The name a machine's host is expected to register as, and where that expectation comes from. */
export function expectedNodeName(r: NodeRecord): { name: string; from: Evidence } | null {
  const m = r.objects.machine;
  const mn = r.objects.mgmtNode;

  if (m) {
    const fromLabel = label(m, LABELS.nodeName);

    if (fromLabel) {
      return { name: fromLabel, from: evidence(objectLabel('machine', m), `metadata.labels[${ LABELS.nodeName }]`, fromLabel) };
    }
    const ref = nodeRefName(m);

    if (ref) {
      return { name: ref, from: evidence(objectLabel('machine', m), 'status.nodeRef.name', ref) };
    }
    const hostname = hostnameAddress(m);

    if (hostname) {
      return { name: hostname.value, from: evidence(objectLabel('machine', m), hostname.path, hostname.value) };
    }
  }
  if (mn) {
    const requested = asString(specOf(mn).requestedHostname);

    if (requested) {
      return { name: requested, from: evidence(objectLabel('mgmtNode', mn), 'spec.requestedHostname', requested) };
    }
  }
  const infra = r.objects.infraMachine;
  const hostname = infra ? hostnameAddress(infra) : null;

  if (infra && hostname) {
    return { name: hostname.value, from: evidence(objectLabel('infraMachine', infra), hostname.path, hostname.value) };
  }

  return null;
}

/** The Hostname address Cluster API copies from the infrastructure machine into status.addresses. */
function hostnameAddress(obj: KubeObject): { value: string; path: string } | null {
  const addresses = asArray(statusOf(obj).addresses);

  for (let i = 0; i < addresses.length; i++) {
    const a = asObject(addresses[i]);
    const value = asString(a.address);

    if (a.type === 'Hostname' && value) {
      return { value, path: `status.addresses[${ i }].address` };
    }
  }

  return null;
}

/** Lower-cased names that machines without a Node expect in upper case, per cluster: a Node by that name is theirs. */
export function expectedNamesOfUnlinkedMachines(records: NodeRecord[]): Map<NodeRecord['cluster'], Set<string>> {
  const out = new Map<NodeRecord['cluster'], Set<string>>();

  for (const r of records) {
    if (!r.objects.machine || r.objects.node) {
      continue;
    }
    const expected = expectedNodeName(r);

    // Only a name Kubernetes would have lower-cased explains a Node under another spelling.
    if (expected && expected.name !== expected.name.toLowerCase()) {
      const set = out.get(r.cluster) ?? new Set<string>();

      set.add(expected.name.toLowerCase());
      out.set(r.cluster, set);
    }
  }

  return out;
}
