/**
 * What real Rancher hands the engine beyond the embedded API's first scenarios: Nodes and Machines without any
 * status, Rancher's management Nodes on their own, Cluster API providers' infrastructure machines, inputs a user
 * may see only part of, and directories holding several clusters.
 */
import { diagnose, linkChain } from '@pkg/node-health/engine';
import type { NodeRecord } from '@pkg/node-health/engine';
import { buildScenario } from '../../../scenarios/catalog';
import { machinesToV1beta2 } from '../../../scenarios/builders';
import { clusterObjects, findingsByName } from './helpers';

const every = buildScenario('every-failure');
const everyId = every.clusters[0].mgmtId;

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

function recordOf(records: NodeRecord[], name: string): NodeRecord {
  const r = records.find((x) => (x.objects.machine ? x.machineName : x.nodeName) === name);

  if (!r) {
    throw new Error(`no record ${ name }`);
  }

  return r;
}

const NO_NODE_MACHINE = 'custom-7a5b1e9c6f87'; // ef-wk-no-node: waiting for its Node past the threshold

describe('objects without any status', () => {
  it('a Node without status is unknown, with the reason, not healthy', () => {
    const objects = clone(clusterObjects(every, everyId)) as any[];
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === 'ef-wk-ok');

    expect(recordOf(diagnose(objects, { now: every.now, defaultCluster: everyId }).records, 'custom-0a11ce5e7c04').status).toBe('healthy');
    delete node.status;
    const r = recordOf(diagnose(objects, { now: every.now, defaultCluster: everyId }).records, 'custom-0a11ce5e7c04');

    expect(r.status).toBe('unknown');
    expect(r.notes).toContainEqual({ key: 'nodeHealth.notes.noStatus', args: { object: 'Node ef-wk-ok' } });
  });

  it.each(['v1beta1', 'v1beta2'])('a %s Machine without status gets one verdict: unknown, no finding that claims what happened', (version) => {
    const base = clone(clusterObjects(every, everyId)) as any[];
    const objects = version === 'v1beta2' ? machinesToV1beta2(base) : base;
    const machine = objects.find((o) => o.kind === 'Machine' && o.metadata.name === NO_NODE_MACHINE);

    expect(findingsByName(diagnose(objects, { now: every.now, defaultCluster: everyId })).get(NO_NODE_MACHINE)).toContain('waiting-for-node-ref');
    delete machine.status;
    const r = recordOf(diagnose(objects, { now: every.now, defaultCluster: everyId }).records, NO_NODE_MACHINE);

    expect(r.findings.map((f) => f.rule)).toStrictEqual([]);
    expect(r.status).toBe('unknown');
    expect(r.notes.map((n) => n.key)).toContain('nodeHealth.notes.noStatus');
  });
});

describe('a machine without a namespace', () => {
  it('gives commands without an empty -n', () => {
    const objects = clone(clusterObjects(every, everyId)) as any[];

    for (const o of objects) {
      if (o.kind === 'Machine' || o.kind === 'RKEBootstrap') {
        delete o.metadata.namespace;
      }
    }
    const report = diagnose(objects, { now: every.now, defaultCluster: everyId });
    const commands = report.records.flatMap((r) => r.findings.flatMap((f) => f.fix.map((s) => s.command ?? '')));

    expect(commands.some((c) => c.includes('machines.cluster.x-k8s.io'))).toBe(true);
    expect(commands.filter((c) => /-n ''|-n ""|-n\s*$/.test(c))).toStrictEqual([]);
  });
});

describe('records from management Nodes alone', () => {
  it('keep the roles and operating system Rancher recorded', () => {
    const s = buildScenario('imported');
    const mgmtOnly = s.objects.filter((o) => o.kind === 'Node' || o.kind === 'Cluster');
    const windows = clone(mgmtOnly) as any[];
    const server = windows.find((o) => o.kind === 'Node' && o.status?.nodeName === 'imp-server-01');

    server.status.internalNodeStatus.nodeInfo.operatingSystem = 'windows';
    delete server.status.nodeLabels;
    const records = diagnose(windows, { now: s.now }).records;
    const r = records.find((x) => x.nodeName === 'imp-server-01')!;
    const worker = records.find((x) => x.nodeName === 'imp-worker-01')!;

    expect(r.objects.node).toBeUndefined();
    expect(r.roles).toStrictEqual(['etcd', 'controlplane']);
    expect(r.os).toBe('windows');
    expect(worker.roles).toStrictEqual(['worker']);
    expect(worker.os).toBe('linux');
  });
});

describe('Cluster API providers\' infrastructure machines', () => {
  const cluster = every.objects.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning.'))!;
  const machine = clone(every.objects.find((o) => o.kind === 'Machine' && o.metadata.name === 'custom-0a11ce5e7c04')!) as any;

  machine.spec.infrastructureRef = {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'AWSMachine', name: 'aws-worker-1', namespace: 'fleet-default'
  };
  const awsMachine = {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind:       'AWSMachine',
    metadata:   {
      name: 'aws-worker-1', namespace: 'fleet-default', creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'cluster.x-k8s.io/cluster-name': 'ef-rke2' }
    },
    status: { ready: true },
  };

  it('is joined as the machine\'s infrastructure machine, in kubectl and Steve shape', () => {
    for (const infra of [awsMachine, {
      ...awsMachine, type: 'infrastructure.cluster.x-k8s.io.awsmachine', id: 'fleet-default/aws-worker-1'
    }]) {
      const r = diagnose([cluster, machine, infra], { now: every.now }).records[0];

      expect(r.objects.infraMachine).toBe(infra);
      expect(linkChain(r).find((l) => l.kind === 'infraMachine')?.state).toBe('present');
    }
  });

  it('lets infrastructure-missing fire when the AWSMachine is gone, and not when it is there', () => {
    const without = diagnose([cluster, machine, { ...awsMachine, metadata: { ...awsMachine.metadata, name: 'another' } }], { now: every.now }).records[0];
    const withIt = diagnose([cluster, machine, awsMachine], { now: every.now }).records[0];

    expect(without.findings.map((f) => f.rule)).toContain('infrastructure-missing');
    expect(withIt.findings.map((f) => f.rule)).not.toContain('infrastructure-missing');
  });

  it('takes Cluster API\'s word that it was deleted when infrastructure machines cannot be read', () => {
    const said = clone(machine);
    // cluster-api machine_controller_status.go setInfrastructureReadyCondition (v1beta2): reason ObjectDeleted.
    const message = 'AWSMachine has been deleted while the Machine still exists';

    said.status.conditions = [...said.status.conditions.filter((c: any) => c.type !== 'InfrastructureReady'), {
      type: 'InfrastructureReady', status: 'False', reason: 'ObjectDeleted', message, lastTransitionTime: '2026-01-02T00:00:00Z'
    }];
    const forbidden = { infraMachines: 'forbidden' } as const;
    const found = diagnose([cluster, said], { now: every.now, availability: forbidden }).records[0].findings.find((f) => f.rule === 'infrastructure-missing');

    expect(found?.evidence.map((e) => e.value)).toContain(message);
    // Without those words, an unreadable list says nothing either way.
    expect(diagnose([cluster, machine], { now: every.now, availability: forbidden }).records[0].findings.map((f) => f.rule)).not.toContain('infrastructure-missing');
  });
});

describe('a Node that never had a machine, in a provisioned cluster', () => {
  it('is no finding, only a note; a Node whose machine was deleted is an orphan', () => {
    const records = diagnose(clusterObjects(every, everyId), { now: every.now, defaultCluster: everyId }).records;
    const external = recordOf(records, 'ef-external');
    const orphan = recordOf(records, 'ef-orphan');

    expect(external.findings).toStrictEqual([]);
    expect(external.status).toBe('healthy');
    expect(external.notes).toStrictEqual([{ key: 'nodeHealth.notes.noMachine' }]);
    expect(orphan.findings.map((f) => f.rule)).toStrictEqual(['orphan-node']);
    expect(orphan.notes).toStrictEqual([]);
  });

  it('to stop a host that should go, names only the services whose unit files the host has', () => {
    const orphan = recordOf(diagnose(clusterObjects(every, everyId), { now: every.now, defaultCluster: everyId }).records, 'ef-orphan');
    const stop = orphan.findings[0].fix.find((s) => s.key.endsWith('.stopAgent'))?.command ?? '';
    // systemctl disables none of its units when one has no unit file, and no host has both RKE2's and K3s's.
    const listed = /^sudo systemctl disable --now \$\(systemctl list-unit-files --no-legend ([^|]+) \| awk '\{print \$1\}'\)$/.exec(stop);

    expect(listed?.[1].split(' ')).toStrictEqual(['rancher-system-agent.service', 'rke2-server.service', 'rke2-agent.service', 'k3s.service', 'k3s-agent.service']);
  });

  it('on a Windows host, stops its services and keeps them stopped when the host starts again', () => {
    const objects = JSON.parse(JSON.stringify(clusterObjects(every, everyId))) as any[];
    const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === 'ef-orphan');

    node.metadata.labels = {
      ...node.metadata.labels, 'cattle.io/os': 'windows', 'kubernetes.io/os': 'windows'
    };
    node.status.nodeInfo = { ...node.status.nodeInfo, operatingSystem: 'windows' };
    const orphan = recordOf(diagnose(objects, { now: every.now, defaultCluster: everyId }).records, 'ef-orphan');
    const stop = orphan.findings[0].fix.find((s) => s.key.endsWith('.stopAgent'))?.command ?? '';

    expect(stop.split('; ')).toStrictEqual([
      'Stop-Service rancher-wins, rke2 -Force', 'Set-Service rancher-wins -StartupType Disabled', 'Set-Service rke2 -StartupType Disabled'
    ]);
  });

  it('a management Node naming a machine that is gone is machine-missing', () => {
    const r = recordOf(diagnose(clusterObjects(every, everyId), { now: every.now, defaultCluster: everyId }).records, 'ef-stale-record');

    expect(r.objects.node).toBeUndefined();
    expect(r.findings.map((f) => f.rule)).toStrictEqual(['machine-missing']);
    expect(r.findings[0].evidence[0]).toMatchObject({ path: 'status.nodeAnnotations[cluster.x-k8s.io/machine]', value: 'custom-b8d4f0a2c6e9' });
  });
});

describe('inputs a user may see only part of', () => {
  const objects = clusterObjects(every, everyId);
  const withPartial = (input: string, drop: (o: any) => boolean) => diagnose(objects.filter((o) => !drop(o)), {
    now: every.now, defaultCluster: everyId, availability: { [input]: 'partial' }
  });

  it('no plan-secret-missing on a secret list that may be partial: unknown, with the reason', () => {
    const noSecret = 'custom-d3b1e7f5c4a3';

    expect(findingsByName(diagnose(objects, { now: every.now, defaultCluster: everyId })).get(noSecret)).toContain('plan-secret-missing');
    const r = recordOf(withPartial('planSecrets', () => false).records, noSecret);

    expect(r.findings.map((f) => f.rule)).not.toContain('plan-secret-missing');
    expect(r.status).toBe('unknown');
    expect(r.notes).toContainEqual({ key: 'nodeHealth.notes.partial.planSecrets', args: { secret: `${ noSecret }-machine-plan` } });
    expect(linkChain(r).find((l) => l.kind === 'planSecret')?.state).toBe('unreadable');
  });

  it('a secret the user cannot see is not called missing, while the ones seen still count', () => {
    const hiddenSecret = 'custom-0a11ce5e7c04';
    const report = withPartial('planSecrets', (o) => o.kind === 'Secret' && o.metadata.labels?.['rke.cattle.io/machine-name'] === hiddenSecret);
    const hidden = recordOf(report.records, hiddenSecret);

    expect(hidden.findings).toStrictEqual([]);
    expect(hidden.status).toBe('unknown');
    // The plan of a machine whose secret was seen is still judged from it.
    expect(findingsByName(report).get('custom-3c9a1f7e2d43')).toContain('plan-apply-failed');
  });

  it('no orphan-node or machine-missing on a machine list that may be partial', () => {
    const report = withPartial('machines', () => false);

    for (const name of ['ef-orphan', 'ef-stale-record']) {
      const r = recordOf(report.records, name);

      expect(r.findings).toStrictEqual([]);
      expect(r.status).toBe('unknown');
      expect(r.notes.map((n) => n.key)).toContain('nodeHealth.notes.partial.machines');
    }
  });

  it('no node-missing from a Node list that may be partial', () => {
    const nodeName = 'ef-wk-ok';
    const report = withPartial('nodes', (o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === nodeName);
    const r = recordOf(report.records, 'custom-0a11ce5e7c04');

    expect(r.findings).toStrictEqual([]);
    expect(r.status).toBe('unknown');
    expect(r.notes).toContainEqual({ key: 'nodeHealth.notes.partial.nodes', args: { node: nodeName } });
  });

  it('no infrastructure-missing from a list of infrastructure machines that may be partial', () => {
    const report = withPartial('infraMachines', (o) => o.kind === 'CustomMachine' && o.metadata.name === 'custom-0a11ce5e7c04');
    const r = recordOf(report.records, 'custom-0a11ce5e7c04');

    expect(r.findings).toStrictEqual([]);
    expect(r.notes.map((n) => n.key)).toContain('nodeHealth.notes.partial.infraMachines');
  });
});

describe('several clusters in one input', () => {
  const ghost = buildScenario('ghost-etcd');
  const ghostId = ghost.clusters[0].mgmtId;

  it('Nodes of one cluster say nothing about another\'s: no "Node is gone" for a cluster whose Nodes were not given', () => {
    const stranger = clone(every.downstream[everyId].find((o) => o.kind === 'Node' && o.metadata.name === 'ef-external')!) as any;

    stranger.metadata.name = 'f5-bigip-flannel';
    // every-failure's machines and secrets, ghost-etcd whole, and a Node that belongs to neither.
    const objects = [...every.objects, ...clusterObjects(ghost, ghostId), stranger];
    const report = diagnose(objects, { now: every.now });
    const everyRecords = report.records.filter((r) => r.cluster?.name === 'ef-rke2');

    expect(everyRecords.length).toBeGreaterThan(10);
    expect(everyRecords.flatMap((r) => r.findings.map((f) => f.rule))).not.toContain('node-missing');
    expect(new Set(everyRecords.map((r) => r.inputs.nodes))).toStrictEqual(new Set(['absent']));
    expect(new Set(report.records.filter((r) => r.cluster?.name === 'dev-k3s').map((r) => r.inputs.nodes))).toStrictEqual(new Set(['ok']));
  });
});
