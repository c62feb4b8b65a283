/**
 * Which inputs were read, per diagnosis and per cluster: a rule that needs an input that could not be read, or
 * was not given, stays silent rather than call its objects missing.
 */
import type {
  ClusterInfo, InputAvailability, InputName, KubeObject, NodeRecord, ObjectKind
} from '../types';
import { label, namespaceOf } from '../fields';
import { LABELS } from '../vocabulary';
import { INPUT_OF_KIND, bucketObjects } from './buckets';
import type { Buckets } from './buckets';
import type { ClusterIndex } from './indexes';

/** Inputs that were not supplied at all count as absent, so rules that need them stay silent. */
export function effectiveAvailability(buckets: Buckets, given: InputAvailability = {}): InputAvailability {
  const out: InputAvailability = { ...given };

  for (const [kind, input] of Object.entries(INPUT_OF_KIND) as [ObjectKind, InputName][]) {
    if (!out[input]) {
      out[input] = (buckets as any)[kind].length > 0 ? 'ok' : 'absent';
    }
  }

  return out;
}

/** An input that was asked for and could not be read, as opposed to one that was read or never given. */
export function unreadableInput(availability: InputAvailability, input: InputName): boolean {
  const a = availability[input];

  return a === 'forbidden' || a === 'error';
}

/** Whether an object's absence from an input tells nothing: it could not be read, or only in part. */
export function absenceUnknown(availability: InputAvailability, input: InputName): boolean {
  return unreadableInput(availability, input) || availability[input] === 'partial';
}

/**
 * Availability per cluster. An input given explicitly (the tab, a bundle) holds for every cluster; one that was
 * not is read for a cluster only when some of its objects belong to that cluster: a directory with the Nodes of
 * one cluster says nothing about the Nodes of another.
 */
function availabilityByCluster(
  records: NodeRecord[], given: InputAvailability, unjoined: (lacking: (cluster: ClusterInfo | null, input: InputName) => boolean) => [ClusterInfo | null, InputName][]
): Map<ClusterInfo | null, InputAvailability> {
  const present = new Map<ClusterInfo | null, Set<InputName>>();

  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    let inputs = present.get(r.cluster);

    if (!inputs) {
      inputs = new Set();
      present.set(r.cluster, inputs);
    }
    const o = r.objects;

    // Spelled out rather than a loop over the keys: this runs for every record of a large cluster.
    if (o.machine) {
      inputs.add('machines');
    }
    if (o.planSecret) {
      inputs.add('planSecrets');
    }
    if (o.bootstrap) {
      inputs.add('bootstraps');
    }
    if (o.infraMachine) {
      inputs.add('infraMachines');
    }
    if (o.mgmtNode) {
      inputs.add('mgmtNodes');
    }
    if (o.node) {
      inputs.add('nodes');
    }
    if (o.lease) {
      inputs.add('leases');
    }
  }
  // Only a cluster with records needs its availability; unjoined objects matter where its records show none.
  for (const [cluster, input] of unjoined((c, i) => present.get(c)?.has(i) === false)) {
    present.get(cluster)?.add(input);
  }
  const out = new Map<ClusterInfo | null, InputAvailability>();

  for (const [cluster, inputs] of present) {
    const availability: InputAvailability = { ...given };

    for (const input of Object.values(INPUT_OF_KIND) as InputName[]) {
      availability[input] ??= inputs.has(input) ? 'ok' : 'absent';
    }
    out.set(cluster, availability);
  }

  return out;
}

/** Availability as a diagnosis of these objects settles it, for callers that record it (bundles). */
export function settleAvailability(objects: unknown[], given: InputAvailability = {}): InputAvailability {
  return effectiveAvailability(bucketObjects(Array.isArray(objects) ? objects : []).buckets, given);
}

/** Each record's inputs as its cluster's: bootstraps and infrastructure machines no machine refers to still show their cluster's list was read. */
export function settleRecordInputs(records: NodeRecord[], buckets: Buckets, availabilityIn: InputAvailability, clusters: ClusterIndex): void {
  const byCluster = availabilityByCluster(records, availabilityIn, (lacking) => {
    const found: [ClusterInfo | null, InputName][] = [];
    const clusterOf = (obj: KubeObject) => {
      const name = label(obj, LABELS.capiClusterName);

      return (name ? clusters.byNsName.get(namespaceOf(obj), name) : undefined) ?? clusters.fallback();
    };

    for (const [input, list] of [['bootstraps', buckets.bootstrap], ['infraMachines', buckets.infraMachine]] as [InputName, KubeObject[]][]) {
      if (list.length && [...clusters.clusters, null].some((c) => lacking(c, input))) {
        for (let i = 0; i < list.length; i++) {
          found.push([clusterOf(list[i]), input]);
        }
      }
    }

    return found;
  });

  for (let i = 0; i < records.length; i++) {
    records[i].inputs = byCluster.get(records[i].cluster) ?? records[i].inputs;
  }
}
