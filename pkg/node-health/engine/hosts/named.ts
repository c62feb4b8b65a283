/** Records that a finding of another record names, by the objects in its evidence. */
import type { NodeRecord } from '../types';
import { nameOf, namespaceOf } from '../fields';
import { objectLabel } from '../evidence';
import { entryFor } from './relations';

/** What a finding's evidence names of other records: `Node <name>` and `Machine <namespace>/<name>`. */
function namedObjects(r: NodeRecord): { rule: string; kind: 'node' | 'machine'; name: string }[] {
  const out: { rule: string; kind: 'node' | 'machine'; name: string }[] = [];
  const ownNode = r.objects.node ? objectLabel('node', r.objects.node) : null;
  const ownMachine = r.objects.machine ? objectLabel('machine', r.objects.machine) : null;

  for (const f of r.findings) {
    // A note-like finding (a node cordoned by hand) is no problem of the record it names.
    if (f.severity === 'info') {
      continue;
    }
    for (const e of f.evidence) {
      if (e.confirmed || e.object === ownNode || e.object === ownMachine) {
        continue;
      }
      if (e.object.startsWith('Node ')) {
        out.push({
          rule: f.rule, kind: 'node', name: e.object.slice(5)
        });
      } else if (e.object.startsWith('Machine ')) {
        out.push({
          rule: f.rule, kind: 'machine', name: e.object.slice(8)
        });
      }
    }
  }

  return out;
}

/**
 * After the rules: records that a finding of another record names (by the objects in its evidence), both ways.
 * Only records with findings are read, and a cluster's records are indexed by name only when one names another.
 */
export function relateNamed(records: NodeRecord[]): NodeRecord[] {
  const named: { r: NodeRecord; kind: 'node' | 'machine'; name: string; rule: string }[] = [];
  // Per cluster, the names of the Nodes and, per namespace, of the machines that findings name.
  const wanted = new Map<NodeRecord['cluster'], { nodes: Set<string>; machines: Map<string, Set<string>> }>();

  for (const r of records) {
    if (r.findings.length === 0 || !r.cluster) {
      continue;
    }
    for (const x of namedObjects(r)) {
      let w = wanted.get(r.cluster);

      if (!w) {
        w = { nodes: new Set(), machines: new Map() };
        wanted.set(r.cluster, w);
      }
      if (x.kind === 'node') {
        w.nodes.add(x.name);
      } else {
        const slash = x.name.indexOf('/');
        const ns = slash >= 0 ? x.name.slice(0, slash) : '';
        const names = w.machines.get(ns) ?? new Set<string>();

        names.add(slash >= 0 ? x.name.slice(slash + 1) : x.name);
        w.machines.set(ns, names);
      }
      named.push({
        r, kind: x.kind, name: x.name, rule: x.rule
      });
    }
  }
  if (named.length === 0) {
    return [];
  }
  // One pass over the records finds the named ones, by look-ups that make no key; only a hit makes one.
  const found = new Map<NodeRecord['cluster'], Map<string, NodeRecord>>();
  const keep = (r: NodeRecord, key: string) => {
    let byKey = found.get(r.cluster);

    if (!byKey) {
      byKey = new Map();
      found.set(r.cluster, byKey);
    }
    byKey.set(key, r);
  };

  for (const r of records) {
    const w = wanted.get(r.cluster);

    if (!w) {
      continue;
    }
    const { node, machine } = r.objects;

    if (node && w.nodes.has(nameOf(node) ?? '')) {
      keep(r, `node:${ nameOf(node) }`);
    }
    if (machine && w.machines.get(namespaceOf(machine) ?? '')?.has(nameOf(machine) ?? '')) {
      keep(r, `machine:${ objectLabel('machine', machine).slice(8) }`);
    }
  }
  const touched: NodeRecord[] = [];

  for (const {
    r, kind, name, rule
  } of named) {
    const other = found.get(r.cluster)?.get(`${ kind }:${ name }`);

    if (!other || other === r) {
      continue;
    }
    const mine = entryFor(r, other);
    const theirs = entryFor(other, r);

    if (!mine.names.includes(rule)) {
      mine.names.push(rule);
    }
    if (!theirs.namedBy.includes(rule)) {
      theirs.namedBy.push(rule);
    }
    touched.push(other);
  }

  return touched;
}
