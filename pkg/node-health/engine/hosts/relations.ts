/** A record's list of related records: made on its first relation, and read by the rules' steps. */
import type { Evidence, NodeRecord, RelatedRecord } from '../types';

/**
 * The relations of a record that has none: one frozen list for all of them, so that a large healthy cluster
 * allocates nothing; a record's own list is made when it gets its first relation.
 */
export const NO_RELATIONS = Object.freeze([]) as unknown as RelatedRecord[];

/** How one record names another: what the other is called in reports and the row detail. */
function relatedTo(other: NodeRecord): Pick<RelatedRecord, 'key' | 'machine' | 'node'> {
  return {
    key: other.key, machine: other.objects.machine ? other.machineName : null, node: other.nodeName
  };
}

export function entryFor(r: NodeRecord, other: NodeRecord): RelatedRecord {
  let entry = r.related.find((x) => x.key === other.key);

  if (!entry) {
    entry = {
      ...relatedTo(other), sameHost: null, shared: [], names: [], namedBy: []
    };
    if (r.related === NO_RELATIONS) {
      r.related = [];
    }
    r.related.push(entry);
  }

  return entry;
}

/** The record a record is most likely the same host as, and that has what it lacks: a Node for a machine, a machine for a Node. */
export function sameHostWith(r: NodeRecord, has: 'node' | 'machine'): RelatedRecord | null {
  let best: RelatedRecord | null = null;

  for (const x of r.related) {
    if (!x.sameHost || (has === 'node' ? !x.node : !x.machine)) {
      continue;
    }
    if (!best || (x.sameHost === 'certain' && best.sameHost !== 'certain')) {
      best = x;
    }
  }

  return best;
}

/** A finding's evidence with what says two records are one host, each field once. */
export function withSharedEvidence(own: Evidence[], related: RelatedRecord | null | undefined): Evidence[] {
  if (!related || related.shared.length === 0) {
    return own;
  }
  const seen = new Set(own.map((e) => `${ e.object }\u0000${ e.path }`));
  const out = [...own];

  for (const s of related.shared) {
    for (const e of s.evidence) {
      const key = `${ e.object }\u0000${ e.path }`;

      if (!seen.has(key)) {
        seen.add(key);
        out.push(e);
      }
    }
  }

  return out;
}
