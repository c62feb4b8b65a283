/**
 * The rules for the failure families of public threads, each on its scenario and on its near misses: the
 * threshold not reached (and reached exactly), the condition recovered, the field that makes it a problem
 * put right.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { load } from 'js-yaml';
import { createTranslator } from '@pkg/node-health/report/translate';
import { diagnose } from '@pkg/node-health/engine';
import type { DiagnoseOptions, DiagnosisReport, Finding } from '@pkg/node-health/engine';
import {
  buildScenario, DRAINING_MACHINE, DUPLICATE_NAME_HOLDER, DUPLICATE_NAME_MACHINE, KUBELET_SKEW_MACHINE, NOT_LINKED_MACHINE, WINDOWS_NO_PROVIDER_ID_MACHINE
} from '../../../scenarios/catalog';
import type { Scenario } from '../../../scenarios/types';
import { clusterObjects, findingsByName } from './helpers';

const enText = createTranslator(load(readFileSync(join(__dirname, '../../../pkg/node-health/l10n/en-us.yaml'), 'utf8')), 'en-us');

const HOUR = 3600e3;
const DAY = 24 * HOUR;

function objectsOf(name: string): { s: Scenario; objects: any[] } {
  const s = buildScenario(name);

  return { s, objects: JSON.parse(JSON.stringify(clusterObjects(s, s.clusters[0].mgmtId))) };
}

function run(s: Scenario, objects: any[], options: Partial<DiagnoseOptions> = {}): DiagnosisReport {
  return diagnose(objects, { now: s.now, ...options });
}

function rulesOf(s: Scenario, objects: any[], name: string, options: Partial<DiagnoseOptions> = {}): string[] {
  return findingsByName(run(s, objects, options)).get(name) ?? [];
}

function finding(report: DiagnosisReport, machine: string, rule: string): Finding | undefined {
  return report.records.find((r) => r.machineName === machine && r.objects.machine)?.findings.find((f) => f.rule === rule);
}

const machineNamed = (objects: any[], name: string) => objects.find((o) => o.kind === 'Machine' && o.metadata.name === name);
const nodeNamed = (objects: any[], name: string) => objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === name);
const planSecretOf = (objects: any[], machine: string) => objects.find((o) => o.kind === 'Secret' && o.metadata.labels?.['rke.cattle.io/machine-name'] === machine);

describe('provider-id-missing', () => {
  const { s, objects } = objectsOf('windows-provider-id');

  it('names the Ready Node that carries the machine\'s uid label but has no providerID', () => {
    const report = run(s, objects);
    const f = finding(report, WINDOWS_NO_PROVIDER_ID_MACHINE, 'provider-id-missing')!;

    expect(f.args).toMatchObject({ problem: 'missing', node: 'win-worker-01' });
    expect(f.evidence).toEqual(expect.arrayContaining([
      {
        object: 'Node win-worker-01', path: 'spec.providerID', value: null
      },
      {
        object: `Machine fleet-default/${ WINDOWS_NO_PROVIDER_ID_MACHINE }`, path: 'status.nodeRef', value: null
      },
    ]));
    expect(finding(report, WINDOWS_NO_PROVIDER_ID_MACHINE, 'node-name-mismatch')?.args).toMatchObject({ expected: 'WIN-WORKER-01', registered: 'win-worker-01' });
    expect(report.counts.healthy).toBe(4);
  });

  it('says "malformed" for a bare providerID, as Cluster API refuses it', () => {
    const broken = JSON.parse(JSON.stringify(objects));

    nodeNamed(broken, 'win-worker-01').spec.providerID = 'rke2';
    expect(finding(run(s, broken), WINDOWS_NO_PROVIDER_ID_MACHINE, 'provider-id-missing')?.args).toMatchObject({ problem: 'malformed', providerID: 'rke2' });
  });

  it('is silent once the Node reports a well-formed providerID, or the machine has its node ref', () => {
    const fixed = JSON.parse(JSON.stringify(objects));

    nodeNamed(fixed, 'win-worker-01').spec.providerID = 'rke2://win-worker-01';
    expect(rulesOf(s, fixed, WINDOWS_NO_PROVIDER_ID_MACHINE)).not.toContain('provider-id-missing');
    const linked = JSON.parse(JSON.stringify(objects));

    machineNamed(linked, WINDOWS_NO_PROVIDER_ID_MACHINE).status.nodeRef = {
      apiVersion: 'v1', kind: 'Node', name: 'win-worker-01'
    };
    expect(rulesOf(s, linked, WINDOWS_NO_PROVIDER_ID_MACHINE)).not.toContain('provider-id-missing');
  });

  it('waits the node start-up threshold, and fires exactly at it', () => {
    expect(rulesOf(s, objects, WINDOWS_NO_PROVIDER_ID_MACHINE, { config: { nodeStartupTimeoutMs: 3 * DAY } })).toContain('provider-id-missing');
    expect(rulesOf(s, objects, WINDOWS_NO_PROVIDER_ID_MACHINE, { config: { nodeStartupTimeoutMs: 3 * DAY + 1 } })).not.toContain('provider-id-missing');
  });
});

describe('node-not-linked', () => {
  // rancher#37406: the Node is Ready with its providerID, the CustomMachine and the Machine have none.
  const { s, objects } = objectsOf('node-not-linked');
  const customMachineOf = (objs: any[]) => objs.find((o) => o.kind === 'CustomMachine');
  const notLinked = (objs: any[], options: Partial<DiagnoseOptions> = {}) => finding(run(s, objs, options), NOT_LINKED_MACHINE, 'node-not-linked');
  const edited = (edit: (objs: any[]) => void) => {
    const copy = JSON.parse(JSON.stringify(objects));

    edit(copy);

    return copy;
  };

  it('stops at the infrastructure machine: Rancher never copied the Ready Node\'s providerID onto the CustomMachine', () => {
    const report = run(s, objects);
    const f = finding(report, NOT_LINKED_MACHINE, 'node-not-linked')!;
    const uid = machineNamed(objects, NOT_LINKED_MACHINE).metadata.uid;

    expect(f.args).toMatchObject({
      link: 'infrastructure', copier: 'rancher', node: 'mc-t-001-node1', providerID: 'rke2://mc-t-001-node1', kind: 'CustomMachine', name: NOT_LINKED_MACHINE
    });
    expect(f.evidence).toEqual(expect.arrayContaining([
      {
        object: 'Node mc-t-001-node1', path: 'spec.providerID', value: 'rke2://mc-t-001-node1'
      },
      {
        object: `CustomMachine fleet-default/${ NOT_LINKED_MACHINE }`, path: 'spec.providerID', value: null
      },
      {
        object: `Machine fleet-default/${ NOT_LINKED_MACHINE }`, path: 'spec.providerID', value: null
      },
    ]));
    // Rancher's log of its look-up names the machine's uid label; the value is quoted for the shell.
    expect(f.fix[0].command).toBe(`kubectl -n cattle-system logs -l app=rancher --since=2h --tail=-1 | grep -F rke.cattle.io/machine=${ uid }`);
    // It is what the cluster waits for, and it explains the machine's wait for its node ref.
    const record = report.records.find((r) => r.machineName === NOT_LINKED_MACHINE)!;

    expect(record.resolution?.rootCause).toBe('node-not-linked');
    expect(findingsByName(report).get(NOT_LINKED_MACHINE)).not.toContain('provider-id-missing');
  });

  it('stops at the Machine when the infrastructure machine has the providerID but does not say it is provisioned', () => {
    const f = notLinked(edited((objs) => {
      customMachineOf(objs).spec.providerID = 'rke2://mc-t-001-node1';
      customMachineOf(objs).status.initialization = { provisioned: false };
    }))!;

    expect(f.args.link).toBe('machine');
    expect(f.evidence).toEqual(expect.arrayContaining([
      {
        object: `CustomMachine fleet-default/${ NOT_LINKED_MACHINE }`, path: 'status.initialization.provisioned', value: false
      },
    ]));
    expect(f.fix[0].command).toBe(`kubectl -n fleet-default get custommachines.rke.cattle.io -o yaml -- ${ NOT_LINKED_MACHINE }`);
  });

  it('says Cluster API does not see the Node when the Machine has the Node\'s very providerID, and restarts its controller', () => {
    const f = notLinked(edited((objs) => {
      customMachineOf(objs).spec.providerID = 'rke2://mc-t-001-node1';
      machineNamed(objs, NOT_LINKED_MACHINE).spec.providerID = 'rke2://mc-t-001-node1';
    }))!;

    expect(f.args.link).toBe('capi');
    expect(f.fix.map((x) => x.command)).toContain('kubectl -n cattle-provisioning-capi-system rollout restart deployment capi-controller-manager');
  });

  it('leaves reading Cluster API\'s connection to the cluster\'s finding when Cluster API cannot reach the cluster', () => {
    const capiBlind = (objs: any[]) => {
      customMachineOf(objs).spec.providerID = 'rke2://mc-t-001-node1';
      machineNamed(objs, NOT_LINKED_MACHINE).spec.providerID = 'rke2://mc-t-001-node1';
    };
    const planKeys = (objs: any[]) => run(s, objs).records.find((r) => r.machineName === NOT_LINKED_MACHINE)!.resolution!.steps.map((x) => x.key);
    const probeFailed = edited((objs) => {
      capiBlind(objs);
      const capi = objs.find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('cluster.x-k8s.io'));

      capi.status.v1beta2.conditions = capi.status.v1beta2.conditions.map((c: any) => (c.type === 'RemoteConnectionProbe' ? {
        ...c, status: 'False', reason: 'ProbeFailed', message: 'Remote connection probe failed, probe last succeeded at 2022-04-19T21:10:00Z', lastTransitionTime: '2022-04-19T21:12:00Z'
      } : c));
    });

    expect(planKeys(edited(capiBlind))).toContain('nodeHealth.rules.nodeNotLinked.fix.capiSees');
    expect(run(s, probeFailed).clusters[0].findings.map((f) => f.rule)).toContain('capi-connection-down');
    expect(planKeys(probeFailed)).not.toContain('nodeHealth.rules.nodeNotLinked.fix.capiSees');
    expect(planKeys(probeFailed)).toContain('nodeHealth.rules.nodeNotLinked.fix.restartCapi');
  });

  it('names both providerIDs when the Machine\'s is not the Node\'s', () => {
    const f = notLinked(edited((objs) => {
      machineNamed(objs, NOT_LINKED_MACHINE).spec.providerID = 'rke2://mc-t-001-node0';
    }))!;

    expect(f.args).toMatchObject({
      link: 'other', machineProviderID: 'rke2://mc-t-001-node0', providerID: 'rke2://mc-t-001-node1'
    });
    expect(f.fix.find((x) => x.key.endsWith('.replace'))?.args).toMatchObject({ custom: 'yes' });
  });

  it('does not know where it stopped when the infrastructure machines could not be read', () => {
    const f = notLinked(edited((objs) => {
      objs.splice(objs.indexOf(customMachineOf(objs)), 1);
    }), { availability: { infraMachines: 'forbidden' } as any })!;

    expect(f.args.link).toBe('either');
  });

  it('leaves the Node without a providerID to provider-id-missing, a Node not Ready to node-not-ready, a gone CustomMachine to infrastructure-missing', () => {
    expect(rulesOf(s, edited((objs) => {
      delete nodeNamed(objs, 'mc-t-001-node1').spec.providerID;
    }), NOT_LINKED_MACHINE))
      .toEqual(expect.arrayContaining(['provider-id-missing']));
    expect(notLinked(edited((objs) => {
      delete nodeNamed(objs, 'mc-t-001-node1').spec.providerID;
    }))).toBeUndefined();
    expect(notLinked(edited((objs) => {
      Object.assign(nodeNamed(objs, 'mc-t-001-node1').status.conditions.find((c: any) => c.type === 'Ready'), { status: 'False', reason: 'KubeletNotReady' });
    }))).toBeUndefined();
    const gone = edited((objs) => {
      objs.splice(objs.indexOf(customMachineOf(objs)), 1);
    });

    expect(notLinked(gone, { availability: { infraMachines: 'ok' } as any })).toBeUndefined();
    expect(rulesOf(s, gone, NOT_LINKED_MACHINE, { availability: { infraMachines: 'ok' } as any })).toContain('infrastructure-missing');
  });

  it('waits for the Node to have been Ready past the not-ready threshold', () => {
    const readySince = Date.parse(nodeNamed(objects, 'mc-t-001-node1').status.conditions.find((c: any) => c.type === 'Ready').lastTransitionTime);
    const readyFor = Date.parse(s.now) - readySince;

    expect(notLinked(objects, { config: { nodeNotReadyTimeoutMs: readyFor } })).toBeDefined();
    expect(notLinked(objects, { config: { nodeNotReadyTimeoutMs: readyFor + 1 } })).toBeUndefined();
  });

  it('leaves an infrastructure provider of its own to set the providerID', () => {
    const f = notLinked(edited((objs) => {
      machineNamed(objs, NOT_LINKED_MACHINE).spec.infrastructureRef.apiVersion = 'infrastructure.cluster.x-k8s.io/v1beta1';
      customMachineOf(objs).apiVersion = 'infrastructure.cluster.x-k8s.io/v1beta1';
    }));

    expect(f?.args).toMatchObject({ link: 'infrastructure', copier: 'provider' });
  });
});

describe('cloud-provider-uninitialized', () => {
  const { s, objects } = objectsOf('cloud-provider-external');
  const machine = objects.find((o) => o.kind === 'Machine').metadata.name;
  const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1');
  const taintAge = Date.parse(s.now) - Date.parse(node.spec.taints.find((t: any) => t.key === 'node.cloudprovider.kubernetes.io/uninitialized').timeAdded);

  it('fires while the Node keeps the uninitialized taint, with the taint as evidence', () => {
    const f = finding(run(s, objects), machine, 'cloud-provider-uninitialized')!;

    expect(f.evidence[0]).toMatchObject({ path: 'spec.taints[node.cloudprovider.kubernetes.io/uninitialized]', value: 'node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule' });
  });

  it('waits the threshold from when the taint was added, and fires exactly at it', () => {
    expect(rulesOf(s, objects, machine, { config: { nodeStartupTimeoutMs: taintAge } })).toContain('cloud-provider-uninitialized');
    expect(rulesOf(s, objects, machine, { config: { nodeStartupTimeoutMs: taintAge + 1 } })).not.toContain('cloud-provider-uninitialized');
  });

  it('is silent once the cloud controller manager removed the taint', () => {
    const fixed = JSON.parse(JSON.stringify(objects));

    for (const n of fixed.filter((o: any) => o.kind === 'Node' && o.apiVersion === 'v1')) {
      n.spec.taints = n.spec.taints.filter((t: any) => t.key !== 'node.cloudprovider.kubernetes.io/uninitialized');
    }
    expect(rulesOf(s, fixed, machine)).not.toContain('cloud-provider-uninitialized');
  });
});

describe('kubelet-version-skew', () => {
  const { s, objects } = objectsOf('kubelet-skew');

  it('names the machine the planner waits for, and tells that the Node is updated but Cluster API has not seen it', () => {
    const report = run(s, objects);
    const f = finding(report, KUBELET_SKEW_MACHINE, 'kubelet-version-skew')!;

    expect(f.args).toMatchObject({
      wanted: 'v1.27.13+rke2r1', kubelet: 'v1.27.13+rke2r1', machineKubelet: 'v1.26.15+rke2r1', stale: 'yes'
    });
    expect(f.fix[1].command).toContain('capi-controller-manager');
    // Known, not asked: the Node runs the new version.
    expect(enText(f.fix[1].key, f.fix[1].args)).toMatch(/^The Node runs the new version and Cluster API has not seen it: restart capi-controller-manager/);
    // The Node shows the upgrade ran: nothing to read on the host or in the chart jobs of why it did not.
    expect(f.fix.map((x) => x.key.split('.').pop())).toStrictEqual(['versions', 'restartCapi']);
    // Nodes the upgrade has not reached yet are queued, not stuck.
    expect(report.records.filter((r) => r.findings.some((x) => x.rule === 'kubelet-version-skew')).map((r) => r.machineName)).toStrictEqual([KUBELET_SKEW_MACHINE]);
  });

  it('waits the upgrade threshold, and fires exactly at it', () => {
    expect(rulesOf(s, objects, KUBELET_SKEW_MACHINE, { config: { upgradeTimeoutMs: 3 * HOUR } })).toContain('kubelet-version-skew');
    expect(rulesOf(s, objects, KUBELET_SKEW_MACHINE, { config: { upgradeTimeoutMs: 3 * HOUR + 1 } })).not.toContain('kubelet-version-skew');
  });

  it('says every Machine\'s copy is stale while Rancher waits for something else, Cluster API\'s watch first (rancher#53343)', () => {
    // The thread: Nodes on v1.35.0+rke2r1, every Machine's status.nodeInfo still v1.33.7+rke2r1, and Rancher's Ready
    // Unknown "waiting for at least one control plane, etcd, and worker node to be registered" for days.
    const { s: healthy, objects: healthyObjects } = objectsOf('healthy');
    const o = JSON.parse(JSON.stringify(healthyObjects));
    const cluster = o.find((x: any) => x.kind === 'Cluster' && x.apiVersion.startsWith('provisioning'));
    const twoDaysAgo = new Date(Date.parse(healthy.now) - 2 * 24 * HOUR).toISOString();

    cluster.spec.kubernetesVersion = 'v1.35.0+rke2r1';
    cluster.status.conditions = cluster.status.conditions.filter((c: any) => c.type !== 'Updated').concat({
      type: 'Updated', status: 'Unknown', reason: 'Waiting', message: 'waiting for at least one control plane, etcd, and worker node to be registered', lastUpdateTime: twoDaysAgo
    });
    for (const x of o.filter((x: any) => x.kind === 'Node' && x.apiVersion === 'v1')) x.status.nodeInfo.kubeletVersion = 'v1.35.0+rke2r1';
    for (const x of o.filter((x: any) => x.kind === 'Machine')) x.status.nodeInfo.kubeletVersion = 'v1.33.7+rke2r1';
    const report = run(healthy, o);
    const skews = report.records.map((r) => r.findings.find((f) => f.rule === 'kubelet-version-skew'));

    expect(skews.length).toBe(5);
    for (const f of skews) {
      expect(f?.args).toMatchObject({
        wanted: 'v1.35.0+rke2r1', kubelet: 'v1.35.0+rke2r1', machineKubelet: 'v1.33.7+rke2r1', stale: 'yes'
      });
      expect(f?.fix[1].command).toContain('rollout restart deployment capi-controller-manager');
    }
    // What the nodes show is what the cluster's wait is checked against first: not a wait nothing explains.
    expect(report.clusters[0].findings.map((f) => f.rule)).not.toContain('unexplained-cluster-wait');
  });

  it('is silent once the planner moved on and the Machine has the new version', () => {
    const done = JSON.parse(JSON.stringify(objects));
    const m = machineNamed(done, KUBELET_SKEW_MACHINE);

    m.status.nodeInfo.kubeletVersion = 'v1.27.13+rke2r1';
    m.status.conditions.find((c: any) => c.type === 'Reconciled').status = 'True';
    const cluster = done.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.map((c: any) => ({
      ...c, status: 'True', message: undefined
    }));
    expect(rulesOf(s, done, KUBELET_SKEW_MACHINE)).not.toContain('kubelet-version-skew');
  });

  it('once the cluster says it is updated, a node still on the old version is reported', () => {
    const settled = JSON.parse(JSON.stringify(objects));
    const cluster = settled.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.map((c: any) => ({
      ...c, status: 'True', message: undefined
    }));
    const laggard = settled.find((o: any) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === 'hv-node-04');
    const machine = settled.find((o: any) => o.kind === 'Machine' && o.metadata.uid === laggard.metadata.labels['rke.cattle.io/machine']).metadata.name;

    expect(rulesOf(s, settled, machine)).toContain('kubelet-version-skew');
    const f = finding(run(s, settled), machine, 'kubelet-version-skew')!;

    // The Node itself is behind: the host's log and the chart jobs first, Cluster API's watch last.
    expect(f.args.stale).toBe('no');
    expect(f.fix.map((x) => x.key.split('.').pop())).toStrictEqual(['versions', 'hostVersion', 'helmJobs', 'restartCapi']);
    expect(enText(f.fix[3].key, f.fix[3].args)).toMatch(/^If the Node already runs the new version but Rancher still waits/);
  });
});

describe('kubelet-version-skew on a release candidate', () => {
  const { s, objects } = objectsOf('healthy');

  it('is silent when the cluster wants an -rc of the release every kubelet runs, and fires on another patch', () => {
    const rc = JSON.parse(JSON.stringify(objects));
    const cluster = rc.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));
    const running = cluster.spec.kubernetesVersion as string;

    cluster.spec.kubernetesVersion = running.replace('+', '-rc1+');
    expect(run(s, rc).records.filter((r) => r.findings.some((f) => f.rule === 'kubelet-version-skew'))).toStrictEqual([]);
    // The same cluster wanting the next patch: once settled, every node is behind it.
    cluster.spec.kubernetesVersion = running.replace(/^v(\d+)\.(\d+)\.(\d+)/, (_: string, a: string, b: string, c: string) => `v${ a }.${ b }.${ Number(c) + 1 }`);
    expect(run(s, rc, { config: { upgradeTimeoutMs: 0 } }).records.filter((r) => r.findings.some((f) => f.rule === 'kubelet-version-skew')).length).toBeGreaterThan(0);
  });
});

describe('drain-stuck', () => {
  const { s, objects } = objectsOf('drain-stuck');

  it('fires on the cordoned worker the cluster says it drains, since the taint was added', () => {
    const f = finding(run(s, objects), DRAINING_MACHINE, 'drain-stuck')!;

    expect(f.severity).toBe('warning');
    expect(f.args).toMatchObject({ node: 'dr-worker-02', duration: 5 * 60 * 60 * 1000 });
    // Rancher still drains it: its pods and budgets, not an uncordon that lets new pods onto the node it empties.
    expect(f.fix.map((x) => x.key.split('.').pop())).toStrictEqual(['pods', 'budgets', 'options']);
    expect(f.fix.map((x) => x.command)).not.toContain('kubectl uncordon dr-worker-02');
  });

  it('offers the uncordon where Rancher waits for its own uncordon to finish (rancher#36669)', () => {
    const uncordoning = JSON.parse(JSON.stringify(objects));
    const reconciled = machineNamed(uncordoning, DRAINING_MACHINE).status.conditions.find((c: any) => c.type === 'Reconciled');

    reconciled.message = 'waiting for uncordon to finish';
    const cluster = uncordoning.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.map((c: any) => (c.message ? { ...c, message: `uncordoning worker node(s) ${ DRAINING_MACHINE }: waiting for uncordon to finish` } : c));
    const f = finding(run(s, uncordoning), DRAINING_MACHINE, 'drain-stuck')!;

    expect(f.args.uncordon).toBe('yes');
    expect(f.fix.map((x) => x.command)).toContain('kubectl uncordon dr-worker-02');
  });

  it('waits the drain threshold, and fires exactly at it', () => {
    expect(rulesOf(s, objects, DRAINING_MACHINE, { config: { drainTimeoutMs: 5 * HOUR } })).toContain('drain-stuck');
    expect(rulesOf(s, objects, DRAINING_MACHINE, { config: { drainTimeoutMs: 5 * HOUR + 1 } })).not.toContain('drain-stuck');
  });

  it('cites the machine\'s own words when its drain fails, whatever the cluster says first', () => {
    const failing = JSON.parse(JSON.stringify(objects));
    const message = `error draining machine ${ DRAINING_MACHINE }: [error when evicting pods/"web-0" -n "shop" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.]`;
    const reconciled = machineNamed(failing, DRAINING_MACHINE).status.conditions.find((c: any) => c.type === 'Reconciled');

    reconciled.status = 'Unknown';
    reconciled.message = message;
    const cluster = failing.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.map((c: any) => (c.message ? { ...c, message: `configuring worker node(s) ${ DRAINING_MACHINE }: waiting for plan to be applied` } : c));
    const f = finding(run(s, failing), DRAINING_MACHINE, 'drain-stuck')!;

    expect(f.evidence.map((e) => e.value)).toContain(message);
    expect(f.args.byRancher).toBe('yes');
  });

  it('is silent once the node is uncordoned and Rancher moved on', () => {
    const done = JSON.parse(JSON.stringify(objects));
    const node = nodeNamed(done, 'dr-worker-02');

    delete node.spec.unschedulable;
    node.spec.taints = (node.spec.taints ?? []).filter((x: any) => x.key !== 'node.kubernetes.io/unschedulable');
    machineNamed(done, DRAINING_MACHINE).status.conditions.find((c: any) => c.type === 'Reconciled').status = 'True';
    const cluster = done.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.map((c: any) => ({
      ...c, status: 'True', message: undefined
    }));
    expect(rulesOf(s, done, DRAINING_MACHINE)).toStrictEqual([]);
  });

  it('a node cordoned by hand, with nothing of Rancher behind it, is a warning that says so: it takes no new pods', () => {
    const { s: h, objects: healthy } = objectsOf('healthy');
    const node = healthy.find((o: any) => o.kind === 'Node' && o.apiVersion === 'v1');

    node.spec.unschedulable = true;
    node.spec.taints = [{
      key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2026-04-30T10:00:00Z'
    }];
    const record = run(h, healthy).records.find((r) => r.objects.node?.metadata.name === node.metadata.name)!;

    expect(record.findings.map((f) => [f.rule, f.severity])).toStrictEqual([['drain-stuck', 'warning']]);
    expect(record.findings[0].args.byRancher).toBe('no');
    // No drain to unblock: who cordoned it, then uncordon.
    expect(record.findings[0].fix.map((x) => x.key.split('.').pop())).toStrictEqual(['whoCordoned', 'uncordon']);
    expect(record.status).toBe('warning');
    // Rancher's drain bookkeeping on the plan secret makes it Rancher's drain.
    const secret = planSecretOf(healthy, record.machineName as string);

    secret.metadata.annotations['rke.cattle.io/pre-drain'] = '{"enabled":true,"timeout":120}';
    const drained = run(h, healthy).records.find((r) => r.objects.node?.metadata.name === node.metadata.name)!;

    expect(drained.findings.map((f) => [f.rule, f.severity])).toStrictEqual([['drain-stuck', 'warning']]);
    expect(drained.findings[0].evidence.map((e) => e.path)).toContain('metadata.annotations[rke.cattle.io/pre-drain]');
    // The annotation alone, on a node not cordoned, has no time to judge by: a drain going well looks the same.
    delete node.spec.unschedulable;
    node.spec.taints = [];
    expect(run(h, healthy).records.find((r) => r.objects.node?.metadata.name === node.metadata.name)!.findings).toStrictEqual([]);
  });
});

describe('duplicate-node-name', () => {
  const { s, objects } = objectsOf('duplicate-node-name');

  it('is on the machine left without a Node, and names the machine that has it', () => {
    const report = run(s, objects);
    const f = finding(report, DUPLICATE_NAME_MACHINE, 'duplicate-node-name')!;

    expect(f.args).toMatchObject({ name: 'worker-01', other: DUPLICATE_NAME_HOLDER });
    expect(f.evidence).toEqual(expect.arrayContaining([{
      object: `Machine fleet-default/${ DUPLICATE_NAME_HOLDER }`, path: 'metadata.name', value: DUPLICATE_NAME_HOLDER
    }]));
    // Another host whose name the finding cites: it says so, and stays healthy.
    const holder = report.records.find((r) => r.machineName === DUPLICATE_NAME_HOLDER)!;

    expect(holder.findings.map((x) => [x.rule, x.severity])).toStrictEqual([['related-record', 'info']]);
    expect(holder.status).toBe('healthy');
  });

  it('waits the node start-up threshold, and fires exactly at it', () => {
    expect(rulesOf(s, objects, DUPLICATE_NAME_MACHINE, { config: { nodeStartupTimeoutMs: 2 * HOUR } })).toContain('duplicate-node-name');
    expect(rulesOf(s, objects, DUPLICATE_NAME_MACHINE, { config: { nodeStartupTimeoutMs: 2 * HOUR + 1 } })).not.toContain('duplicate-node-name');
  });

  it('is silent when the second host has a name of its own', () => {
    const renamed = JSON.parse(JSON.stringify(objects));

    for (const a of machineNamed(renamed, DUPLICATE_NAME_MACHINE).status.addresses) {
      if (a.type === 'Hostname') {
        a.address = 'worker-03';
      }
    }
    expect(rulesOf(s, renamed, DUPLICATE_NAME_MACHINE)).not.toContain('duplicate-node-name');
  });
});

describe('serving-certs-expired', () => {
  const { s, objects } = objectsOf('serving-certs');
  const machine = objects.find((o) => o.kind === 'Machine' && o.metadata.labels['rke.cattle.io/etcd-role'] === 'true').metadata.name;
  const node = objects.find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.labels['rke.cattle.io/machine'] === machineNamed(objects, machine).metadata.uid);
  const nodeAge = Date.parse(s.now) - Date.parse(node.metadata.creationTimestamp);

  it('names the two probes and the node\'s age, and offers Rotate Certificates first', () => {
    const f = finding(run(s, objects), machine, 'serving-certs-expired')!;

    expect(f.args.probes).toBe('kube-controller-manager, kube-scheduler');
    expect(f.evidence).toEqual(expect.arrayContaining([{
      object: `Node ${ node.metadata.name }`, path: 'metadata.creationTimestamp', value: node.metadata.creationTimestamp
    }]));
    expect(f.fix[0].command).toContain('"rotateCertificates":{"generation":1}');
  });

  it('counts the probes failing from the plan the upgrade wrote, as the cluster\'s wait does, not from the node\'s creation', () => {
    const record = run(s, objects).records.find((r) => r.machineName === machine)!;
    const probes = record.findings.find((f) => f.rule === 'probes-failing')!;

    expect(probes.since).toBe(new Date(Date.parse(s.now) - 6 * HOUR).toISOString().replace('.000Z', 'Z'));
    expect(probes.args.duration).toBe(6 * HOUR);
  });

  it('needs a node older than the certificates\' lifetime, and fires exactly at it', () => {
    expect(rulesOf(s, objects, machine, { config: { servingCertLifetimeMs: nodeAge } })).toContain('serving-certs-expired');
    expect(rulesOf(s, objects, machine, { config: { servingCertLifetimeMs: nodeAge + 1 } })).not.toContain('serving-certs-expired');
  });

  it('is silent when another probe fails too', () => {
    const more = JSON.parse(JSON.stringify(objects));
    const secret = planSecretOf(more, machine);
    const statuses = JSON.parse(Buffer.from(secret.data['probe-statuses'], 'base64').toString());

    statuses.kubelet = {
      healthy: false, successCount: 0, failureCount: 12
    };
    secret.data['probe-statuses'] = Buffer.from(JSON.stringify(statuses)).toString('base64');
    const rules = rulesOf(s, more, machine);

    expect(rules).toContain('probes-failing');
    expect(rules).not.toContain('serving-certs-expired');
  });
});

describe('cluster-level findings', () => {
  it('cluster-agent-disconnected: from the management cluster, says Node data may be stale, after the threshold', () => {
    const { s, objects } = objectsOf('agent-disconnected');
    const at = (ms: number) => run(s, objects, { config: { clusterAgentTimeoutMs: ms } }).clusters[0].findings.map((f) => f.rule);
    const f = run(s, objects).clusters[0].findings[0];

    expect(f).toMatchObject({
      rule: 'cluster-agent-disconnected', severity: 'error', since: '2026-01-06T09:00:00Z'
    });
    expect(f.evidence.map((e) => e.object)).toContain('management Cluster c-m-ed2g5k8s');
    expect(at(2 * HOUR)).toStrictEqual(['cluster-agent-disconnected']);
    expect(at(2 * HOUR + 1)).toStrictEqual([]);
  });

  it('cluster-agent-disconnected: without the management cluster (not readable) the provisioning cluster still tells; recovered, silence', () => {
    const { s, objects } = objectsOf('agent-disconnected');
    const withoutMgmt = objects.filter((o) => !(o.kind === 'Cluster' && o.apiVersion.startsWith('management')));

    expect(run(s, withoutMgmt).clusters[0].findings.map((f) => f.rule)).toStrictEqual(['cluster-agent-disconnected']);
    for (const c of objects.filter((o) => o.kind === 'Cluster')) {
      c.status.conditions = c.status.conditions.map((x: any) => ({
        ...x, status: 'True', reason: undefined, message: undefined
      }));
    }
    expect(run(s, objects).clusters[0].findings).toStrictEqual([]);
  });

  it('init-node-missing: from the cluster\'s message (error), or from no plan secret marked (warning), silent when marked', () => {
    const { s, objects } = objectsOf('init-node-lost');
    const said = run(s, objects).clusters[0].findings;

    expect(said.map((f) => [f.rule, f.severity])).toStrictEqual([['init-node-missing', 'error']]);
    expect(said[0].evidence.map((e) => e.value)).toContain('init node not found');
    const quiet = JSON.parse(JSON.stringify(objects));
    const cluster = quiet.find((o: any) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning'));

    cluster.status.conditions = cluster.status.conditions.map((c: any) => ({
      ...c, status: 'True', reason: undefined, message: undefined
    }));
    expect(run(s, quiet).clusters[0].findings.map((f) => [f.rule, f.severity])).toStrictEqual([['init-node-missing', 'warning']]);
    // Plan secrets not readable: nothing can be said without the message.
    expect(run(s, quiet.filter((o: any) => o.kind !== 'Secret'), { availability: { planSecrets: 'forbidden' } }).clusters[0].findings).toStrictEqual([]);
    const secret = quiet.find((o: any) => o.kind === 'Secret' && o.metadata.labels?.['rke.cattle.io/etcd-role'] === 'true');

    secret.metadata.labels['rke.cattle.io/init-node'] = 'true';
    expect(run(s, quiet).clusters[0].findings).toStrictEqual([]);
    // The mark is only on the init node's plan secret: with that secret gone, which machine it was cannot be told.
    const marked = secret.metadata.name;

    expect(run(s, quiet.filter((o: any) => o.metadata?.name !== marked)).clusters[0].findings.map((f) => f.rule)).not.toContain('init-node-missing');
  });

  it('no cluster of the other scenarios has a cluster finding', () => {
    for (const name of ['ghost-etcd', 'windows-node-ref', 'healthy', 'every-failure', 'imported', 'etcd-hook', 'orphan-node']) {
      const { s, objects } = objectsOf(name);

      expect(run(s, objects, { defaultCluster: s.clusters[0].mgmtId }).clusters.flatMap((c) => c.findings)).toStrictEqual([]);
    }
  });
});
