/**
 * Two machines that want one node name: two hosts with the same host name, or a host re-installed with a new
 * node password. Kubernetes keeps the first Node; the other host's kubelet is refused ("Node password rejected,
 * duplicate hostname or contents of '/etc/rancher/node/password' may not match server node-passwd entry",
 * rke2#1916) and its machine waits for its node ref for ever.
 */
import type { NodeRecord } from '../types';
import { nameOf } from '../fields';
import { nodeRefName } from '../objects';
import { expectedNodeName } from '../expected-name';
import type { RuleContext } from './rule';
import {
  Rule, acting, age, duration, evidence, kubectlMachine, objectLabel, step
} from './rule';
import { kubernetesServices, serviceJournal } from './host-commands';

/**
 * Per cluster, who claims which node name: a machine by its linked Node, else by the name it expects. Built on
 * first use, of the records themselves (a name nearly always has one): the claims are made for the names asked.
 */
export function nameClaimsOf(records: NodeRecord[]): RuleContext['nameClaims'] {
  let index: Map<NodeRecord['cluster'], Map<string, NodeRecord | NodeRecord[]>> | null = null;
  const build = () => {
    const byCluster = new Map<NodeRecord['cluster'], Map<string, NodeRecord | NodeRecord[]>>();

    for (const r of records) {
      if (!r.objects.machine || r.deleting) {
        continue;
      }
      const node = r.objects.node;
      const name = node ? nameOf(node) : expectedNodeName(r)?.name ?? null;

      if (!name) {
        continue;
      }
      let byName = byCluster.get(r.cluster);

      if (!byName) {
        byName = new Map();
        byCluster.set(r.cluster, byName);
      }
      const key = name.toLowerCase();
      const claims = byName.get(key);

      if (!claims) {
        byName.set(key, r);
      } else if (Array.isArray(claims)) {
        claims.push(r);
      } else {
        byName.set(key, [claims, r]);
      }
    }

    return byCluster;
  };

  return (cluster, lowerName) => {
    index ??= build();
    const claims = index.get(cluster)?.get(lowerName);

    return (claims === undefined ? [] : Array.isArray(claims) ? claims : [claims]).map((record) => ({ record, linked: !!record.objects.node }));
  };
}

export const duplicateNodeName: Rule = {
  id:       'duplicate-node-name',
  severity: 'error',
  explains: ['waiting-for-node-ref', 'blocking-cluster-operation', 'probes-failing'],
  needs:    [],
  check(r, ctx) {
    const m = r.objects.machine;

    if (!m || r.deleting || r.objects.node || nodeRefName(m)) {
      return null;
    }
    const expected = expectedNodeName(r);
    const waited = age(ctx, r.created);

    if (!expected || waited === null || waited < ctx.config.nodeStartupTimeoutMs) {
      return null;
    }
    const others = ctx.nameClaims(r.cluster, expected.name.toLowerCase()).filter((c) => c.record !== r);
    // The machine that has the Node is the one to name; else any other machine waiting for the same name.
    const other = others.find((c) => c.linked) ?? others[0];

    if (!other) {
      return null;
    }
    const otherMachine = other.record.objects.machine as NonNullable<NodeRecord['objects']['machine']>;
    const otherLabel = objectLabel('machine', otherMachine);
    const node = other.record.objects.node;

    return {
      args:     {
        name: expected.name, other: other.record.machineName ?? '?', duration: duration(waited)
      },
      evidence: [
        expected.from,
        evidence(otherLabel, 'metadata.name', other.record.machineName),
        ...(node ? [evidence(objectLabel('node', node), 'metadata.name', nameOf(node)), evidence(otherLabel, 'status.nodeRef.name', nodeRefName(otherMachine))] : []),
        evidence(objectLabel('machine', m), 'status.nodeRef', null),
      ],
      fix: [
        step(this.id, 'hostLog', {}, r.os === 'windows' ? undefined : serviceJournal(kubernetesServices(r), "--no-pager | grep -i 'Node password rejected' | tail -n 5")),
        step(this.id, 'uniqueName'),
        step(this.id, 'reinstalled', { name: expected.name.toLowerCase() }, `kubectl -n kube-system get secrets | grep -i -- '${ expected.name.toLowerCase().replace(/[^a-z0-9.-]/g, '') }.node-password'`),
        step(this.id, 'removeStale', { other: other.record.machineName ?? '?' }),
        acting('delete-machine', step(this.id, 'deleteThis', {}, kubectlMachine(r, 'delete', '--wait=false'))),
      ],
      since:   r.created,
      actions: ['re-register'],
    };
  },
};
