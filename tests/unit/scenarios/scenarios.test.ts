import { createHash } from 'crypto';
import { gunzipSync } from 'zlib';

import {
  canaryValues, clusterRegistrationToken, MACHINE_UID_LABEL, normanRegistrationToken, plannerClusterMessage,
  PRE_TERMINATE_HOOK_ANNOTATION, revealSecretValue, SENSITIVE_PLAN_SECRET_KEYS, toV1beta2,
} from '../../../scenarios/builders';
import {
  buildScenario, EVERY_FAILURE_EXPECTED, everyFailure, FAILURE_FAMILIES, GHOST_MACHINE, large, LEAVING_ETCD_MACHINE,
  JOIN_KEY_MACHINES, NODE_NOT_FOUND_MACHINE, SCENARIO_NAMES, V1BETA2_NODE_GONE_MACHINE, scenarioObjects, WINDOWS_CASE_MACHINE, WINDOWS_VM_GONE_MACHINE, XSS_PAYLOAD,
} from '../../../scenarios/catalog';
import { toSteve, toSteveCollection } from '../../../scenarios/steve';
import { goUnixDate, parseGoUnixDate } from '../../../scenarios/time';
import {
  KubeObject, MachineV1beta1, NodeObject, Scenario, SecretObject
} from '../../../scenarios/types';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const b64 = (value: string) => Buffer.from(value, 'base64').toString('utf8');

const machinesOf = (s: Scenario) => s.objects.filter((o): o is MachineV1beta1 => o.kind === 'Machine');
const nodesOf = (s: Scenario) => Object.values(s.downstream).flat().filter((o): o is NodeObject => o.kind === 'Node');
const mgmtNodeNamesOf = (s: Scenario) => s.objects.filter((o) => o.kind === 'Node' && o.apiVersion.startsWith('management.cattle.io/')).map((o) => (o.status as { nodeName?: string } | undefined)?.nodeName ?? '');
const planSecretsOf = (s: Scenario) => s.objects.filter((o): o is SecretObject => o.kind === 'Secret' && o.type === 'rke.cattle.io/machine-plan');
const planSecretFor = (s: Scenario, m: MachineV1beta1) => planSecretsOf(s).find((p) => p.metadata.name === `${ m.spec.bootstrap.configRef.name }-machine-plan`);
const machine = (s: Scenario, name: string) => {
  const found = machinesOf(s).find((m) => m.metadata.name === name);

  if (!found) throw new Error(`no machine ${ name } in ${ s.name }`);

  return found;
};
const condition = (m: MachineV1beta1, type: string) => m.status.conditions.find((c) => c.type === type);
const provisioningCluster = (s: Scenario) => s.objects.find((o) => o.apiVersion === 'provisioning.cattle.io/v1' && o.kind === 'Cluster') as KubeObject & {
  spec: { rkeConfig?: { rotateCertificates?: { generation: number } } };
  status: { clusterName: string; certificateRotationGeneration?: number; conditions: { type: string; status: string; message?: string }[] };
};

const named = SCENARIO_NAMES.map((name) => [name, buildScenario(name)] as const);
/** Scenarios in v1beta1 shape whose Nodes carry every join key (capi-v1beta2 and join-keys are checked on their own below) */
const fullyKeyed = named.filter(([name]) => name !== 'capi-v1beta2' && name !== 'join-keys');

describe('every named scenario', () => {
  it.each(named)('%s is deterministic', (name, scenario) => {
    expect(JSON.stringify(buildScenario(name))).toBe(JSON.stringify(scenario));
  });

  it.each(named)('%s stamps nothing after its clock', (_name, scenario) => {
    const now = Date.parse(scenario.now);
    const stamps: string[] = [];
    const walk = (v: unknown, key = '') => {
      if (typeof v === 'string' && /(Timestamp|Time|lastUpdated|since|created)$/i.test(key) && /^\d{4}-\d\d-\d\dT/.test(v)) stamps.push(v);
      else if (Array.isArray(v)) v.forEach((x) => walk(x));
      else if (v && typeof v === 'object') Object.entries(v).forEach(([k, x]) => walk(x, k));
    };

    scenarioObjects(scenario).forEach(({ object }) => walk(object));
    expect(stamps.length).toBeGreaterThan(10);
    for (const t of stamps) expect(Date.parse(t)).toBeLessThanOrEqual(now);
  });

  it.each(named)('%s: object identities are unique and uids never repeat', (_name, scenario) => {
    const all = scenarioObjects(scenario);
    const keys = all.map(({ cluster, object }) => `${ cluster }|${ object.apiVersion }|${ object.kind }|${ object.metadata.namespace ?? '' }|${ object.metadata.name }`);

    expect(new Set(keys).size).toBe(keys.length);
    const uids = all.map(({ object }) => object.metadata.uid);

    expect(new Set(uids).size).toBe(uids.length);
  });

  it.each(named)('%s: every pool\'s MachineDeployment and MachineSet has the template Rancher\'s cluster page reads', (_name, scenario) => {
    // The cluster page's MachineDeployment model reads spec.template.spec.infrastructureRef.kind unguarded.
    for (const { object } of scenarioObjects(scenario).filter(({ object }) => ['MachineDeployment', 'MachineSet'].includes(object.kind))) {
      const spec = (object as { spec?: any }).spec;

      expect(spec?.template?.spec?.infrastructureRef?.kind).toMatch(/MachineTemplate$/);
      expect(spec?.template?.spec?.bootstrap?.configRef?.kind).toBe('RKEBootstrapTemplate');
    }
  });

  it.each(fullyKeyed)('%s: linked Nodes, Machines and management Nodes agree on every join key', (_name, scenario) => {
    const machines = machinesOf(scenario);
    const byUid = new Map(machines.map((m) => [m.metadata.uid, m]));
    let linked = 0;

    for (const node of nodesOf(scenario)) {
      const m = byUid.get(node.metadata.labels?.[MACHINE_UID_LABEL] ?? '');

      if (!m) continue;
      linked++;
      // Registered for the machine but never linked: Cluster API links a Node only through its providerID, the
      // Machine's, which never got the Node's own (node-not-linked).
      if (!node.spec.providerID || !m.spec.providerID) {
        expect(m.status.nodeRef).toBeUndefined();
        expect(node.metadata.annotations?.['cluster.x-k8s.io/machine']).toBeUndefined();
        continue;
      }
      expect(m.status.nodeRef?.name).toBe(node.metadata.name);
      expect(m.status.nodeRef?.uid).toBe(node.metadata.uid);
      expect(node.metadata.annotations?.['cluster.x-k8s.io/machine']).toBe(m.metadata.name);
      expect(node.spec.providerID).toBe(m.spec.providerID);
    }
    // A provisioned cluster links its Nodes, unless no machine has got one yet (a planner that planned nothing).
    if (scenario.clusters.every((c) => c.kind !== 'imported') && machinesOf(scenario).some((m) => m.status?.nodeRef)) expect(linked).toBeGreaterThan(0);
    const mgmtNodes = scenario.objects.filter((o) => o.apiVersion === 'management.cattle.io/v3' && o.kind === 'Node');
    const nodeNames = new Set(nodesOf(scenario).map((n) => n.metadata.name));

    for (const mn of mgmtNodes) {
      const status = mn.status as { nodeName: string };

      // A machine-missing case keeps Rancher's management Node after the Node itself is gone.
      expect(nodeNames.has(status.nodeName) || scenario.expected[status.nodeName]?.[0] === 'machine-missing').toBe(true);
      expect(mn.metadata.labels?.['management.cattle.io/nodename']).toBe(status.nodeName);
      expect(scenario.clusters.map((c) => c.mgmtId)).toContain(mn.metadata.namespace);
    }
  });

  it.each(fullyKeyed)('%s: plan secrets belong to their bootstrap and their checksums mean what they say', (_name, scenario) => {
    for (const m of machinesOf(scenario)) {
      const secret = planSecretFor(scenario, m);

      if (!secret) continue;
      expect(secret.metadata.labels?.['rke.cattle.io/machine-name']).toBe(m.metadata.name);
      expect(secret.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'RKEBootstrap', name: m.spec.bootstrap.configRef.name, uid: m.spec.bootstrap.configRef.uid
      });
      // A secret the planner has written nothing to yet (etcd-plane-replaced) holds no data at all.
      if (Object.keys(secret.data ?? {}).length === 0) continue;
      const plan = b64(secret.data.plan);

      expect(JSON.parse(plan).instructions[0].name).toBe('install');
      if (secret.data.appliedPlan !== undefined) {
        const applied = b64(secret.data.appliedPlan);

        expect(b64(secret.data['applied-checksum'])).toBe(sha256(applied));
        if (applied === plan) expect(b64(secret.data['applied-checksum'])).toBe(sha256(plan));
      } else {
        expect(secret.data['applied-checksum']).toBeUndefined();
      }
      if (secret.data['last-apply-time']) {
        const parsed = parseGoUnixDate(b64(secret.data['last-apply-time']));

        expect(parsed).toBeDefined();
        expect(Date.parse(parsed as string)).toBeLessThanOrEqual(Date.parse(scenario.now));
      }
    }
  });

  it.each(named)('%s: sensitive values carry the marker and nothing else does', (_name, scenario) => {
    const marker = scenario.secretMarker;
    let sensitiveSeen = 0;

    for (const { object } of scenarioObjects(scenario)) {
      const copy = JSON.parse(JSON.stringify(object)) as KubeObject & { data?: Record<string, string>; status?: Record<string, unknown> };

      if (copy.kind === 'Secret' && copy.data) {
        const sensitive = copy.type === 'rke.cattle.io/machine-plan' ? SENSITIVE_PLAN_SECRET_KEYS : ['token', 'ca.crt'];

        for (const [key, value] of Object.entries(copy.data)) {
          const text = revealSecretValue(value);

          if (sensitive.includes(key)) {
            expect(text).toContain(marker);
            sensitiveSeen++;
          } else {
            expect(text).not.toContain(marker);
          }
        }
        delete copy.data;
      }
      if (copy.kind === 'ClusterRegistrationToken') {
        expect(copy.status?.token).toContain(marker);
        expect(copy.status?.nodeCommand).toContain(copy.status?.token);
        delete copy.status;
      }
      expect(JSON.stringify(copy)).not.toContain(marker);
    }
    // Every plan written holds the join token: a scenario with a plan must show a sensitive value.
    const planned = scenarioObjects(scenario).some(({ object }) => object.kind === 'Secret' && (object as any).type === 'rke.cattle.io/machine-plan' && Object.keys((object as any).data ?? {}).length);

    if (planned) expect(sensitiveSeen).toBeGreaterThan(0);
  });
});

describe('secret marker', () => {
  it('follows the caller-supplied marker everywhere', () => {
    const s = buildScenario('healthy', { secretMarker: 'CANARY-7f3a' });
    const text = JSON.stringify(s);

    expect(text).not.toContain('SECRET-VALUE');
    const revealed = planSecretsOf(s).map((p) => revealSecretValue(p.data.plan)).join('\n');

    expect(revealed).toContain('CANARY-7f3a');
    expect(revealed).not.toContain('SECRET-VALUE');
  });

  it('lists canary values that include the raw sensitive data', () => {
    const s = buildScenario('healthy');
    const canaries = canaryValues(s.objects, s.secretMarker);
    const secret = planSecretsOf(s)[0];

    expect(canaries).toContain(s.secretMarker);
    expect(canaries).toContain(secret.data.plan);
    expect(canaries).toContain(secret.data['applied-output']);
    expect(canaries).not.toContain(secret.data['applied-checksum']);
  });

  it('stores agent output as real gzip', () => {
    const s = buildScenario('healthy');
    const secret = planSecretsOf(s)[0];
    const json = JSON.parse(gunzipSync(Buffer.from(secret.data['applied-output'], 'base64')).toString('utf8')) as Record<string, string>;

    expect(b64(json.install)).toContain(s.secretMarker);
  });
});

describe('ghost-etcd', () => {
  const s = buildScenario('ghost-etcd');
  const ghost = machine(s, GHOST_MACHINE);

  it('has an etcd machine whose agent never applied its plan, deleting and held by its finalizer', () => {
    expect(ghost.metadata.labels?.['rke.cattle.io/etcd-role']).toBe('true');
    const secret = planSecretFor(s, ghost) as SecretObject;

    expect(secret.data.plan).toBeDefined();
    expect(secret.data.appliedPlan).toBeUndefined();
    expect(condition(ghost, 'Reconciled')).toMatchObject({
      status: 'Unknown', reason: 'Waiting', message: 'waiting for agent to check in and apply initial plan'
    });
    expect(ghost.metadata.deletionTimestamp).toBeDefined();
    expect(ghost.metadata.finalizers).toEqual(['machine.cluster.x-k8s.io']);
    expect(ghost.status.nodeRef).toBeUndefined();
    expect(Date.parse(s.now) - Date.parse(ghost.metadata.creationTimestamp)).toBeGreaterThan(30 * 86400_000);
    expect(nodesOf(s).some((n) => n.metadata.labels?.[MACHINE_UID_LABEL] === ghost.metadata.uid)).toBe(false);
  });

  it('names the ghost in the cluster conditions while certificate rotation waits', () => {
    const cluster = provisioningCluster(s);
    const message = 'configuring etcd node(s) custom-2d74d4c9a104: waiting for agent to check in and apply initial plan';

    expect(cluster.status.conditions.find((c) => c.type === 'Updated')).toMatchObject({ status: 'Unknown', message });
    expect(cluster.status.conditions.find((c) => c.type === 'Provisioned')).toMatchObject({ status: 'Unknown', message });
    // The provisioning cluster has no status of the rotation (the RKEControlPlane keeps it).
    expect(cluster.status.certificateRotationGeneration).toBeUndefined();
  });

  it('keeps every other machine joined and in sync', () => {
    const others = machinesOf(s).filter((m) => m.metadata.name !== GHOST_MACHINE);

    expect(others.length).toBeGreaterThanOrEqual(14);
    for (const m of others) {
      expect(m.status.phase).toBe('Running');
      const secret = planSecretFor(s, m) as SecretObject;

      expect(secret.data.appliedPlan).toBe(secret.data.plan);
      expect(nodesOf(s).find((n) => n.metadata.labels?.[MACHINE_UID_LABEL] === m.metadata.uid)?.metadata.name).toBe(m.status.nodeRef?.name);
    }
  });

  it('leaves dev-k8s-node01 pointing at a machine that no longer exists', () => {
    const node = nodesOf(s).find((n) => n.metadata.name === 'dev-k8s-node01') as NodeObject;

    expect(node.metadata.annotations?.['cluster.x-k8s.io/machine']).toBe('custom-f489526f114a');
    const uids = new Set(machinesOf(s).map((m) => m.metadata.uid));

    expect(uids.has(node.metadata.labels?.[MACHINE_UID_LABEL] as string)).toBe(false);
    expect(s.expected['dev-k8s-node01']).toEqual(['orphan-node']);
  });

  it('keeps the agent ServiceAccount and its token secret', () => {
    const sa = s.objects.find((o) => o.kind === 'ServiceAccount' && o.metadata.name === `${ GHOST_MACHINE }-machine-plan`);

    expect(sa?.metadata.labels).toMatchObject({ 'rke.cattle.io/machine-name': GHOST_MACHINE, 'rke.cattle.io/service-account-role': 'plan' });
    const token = s.objects.find((o) => o.kind === 'Secret' && o.metadata.labels?.['cattle.io/service-account.name'] === `${ GHOST_MACHINE }-machine-plan`) as SecretObject;

    expect(token.type).toBe('kubernetes.io/service-account-token');
  });
});

describe('windows-node-ref', () => {
  const s = buildScenario('windows-node-ref');

  it('has a Windows machine whose VM vanished and that waits for its node ref', () => {
    const m = machine(s, WINDOWS_VM_GONE_MACHINE);

    expect(m.metadata.labels?.['cattle.io/os']).toBe('windows');
    expect(m.status.phase).toBe('Provisioning');
    expect(m.status.nodeRef).toBeUndefined();
    expect(condition(m, 'NodeHealthy')).toMatchObject({ status: 'False', reason: 'WaitingForNodeRef' });
    expect(condition(m, 'InfrastructureReady')?.message).toMatch(/no VM found/);
    const infra = s.objects.find((o) => o.kind === 'VmwarevsphereMachine' && o.metadata.name === m.spec.infrastructureRef.name) as KubeObject & { status: { ready: boolean; conditions: { type: string; status: string; message?: string }[] } };

    expect(m.spec.infrastructureRef).toMatchObject({ apiVersion: 'rke-machine.cattle.io/v1', kind: 'VmwarevsphereMachine' });
    expect(infra.status.ready).toBe(false);
    expect(infra.status.conditions.find((c) => c.type === 'Ready')?.message).toMatch(/no VM found/);
  });

  it('has a machine expecting WIN-WORKER-01 while the Node registered as win-worker-01 with no machine label', () => {
    const m = machine(s, WINDOWS_CASE_MACHINE);

    expect(m.status.nodeRef).toBeUndefined();
    expect(m.status.addresses?.find((a) => a.type === 'Hostname')?.address).toBe('WIN-WORKER-01');
    const node = nodesOf(s).find((n) => n.metadata.name === 'win-worker-01') as NodeObject;

    expect(node.status.nodeInfo.operatingSystem).toBe('windows');
    expect(node.status.nodeInfo.osImage).toBe('Windows Server 2019 Datacenter');
    expect(node.metadata.labels?.[MACHINE_UID_LABEL]).toBeUndefined();
    expect(node.metadata.annotations?.['cluster.x-k8s.io/machine']).toBeUndefined();
    expect(node.status.conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('keeps the Linux servers and workers healthy', () => {
    const linux = machinesOf(s).filter((m) => m.metadata.labels?.['cattle.io/os'] === 'linux');

    expect(linux).toHaveLength(5);
    linux.forEach((m) => expect(m.status.phase).toBe('Running'));
  });
});

describe('orphan-node and etcd-hook', () => {
  it('orphan-node: a Node without its Machine, and a Machine without its Node', () => {
    const s = buildScenario('orphan-node');
    const orphan = nodesOf(s).find((n) => n.metadata.name === 'edge-worker-03') as NodeObject;

    expect(machinesOf(s).some((m) => m.metadata.name === orphan.metadata.annotations?.['cluster.x-k8s.io/machine'])).toBe(false);
    const ghost = machine(s, NODE_NOT_FOUND_MACHINE);

    expect(ghost.status.nodeRef?.name).toBe('edge-worker-04');
    expect(nodesOf(s).some((n) => n.metadata.name === 'edge-worker-04')).toBe(false);
    expect(condition(ghost, 'NodeHealthy')).toMatchObject({
      status: 'False', reason: 'NodeNotFound', severity: 'Error'
    });
  });

  it('etcd-hook: deleting for two hours behind the pre-terminate hook while a node is joined to it', () => {
    const s = buildScenario('etcd-hook');
    const m = machine(s, LEAVING_ETCD_MACHINE);

    expect(Date.parse(s.now) - Date.parse(m.metadata.deletionTimestamp as string)).toBe(2 * 3600_000);
    expect(m.metadata.annotations).toHaveProperty([PRE_TERMINATE_HOOK_ANNOTATION]);
    expect(condition(m, 'PreTerminateDeleteHookSucceeded')).toMatchObject({ status: 'False', reason: 'WaitingExternalHook' });
    expect(condition(m, 'DrainingSucceeded')?.status).toBe('True');
    const joinUrl = planSecretFor(s, m)?.metadata.annotations?.['rke.cattle.io/join-url'];

    expect(joinUrl).toMatch(/^https:\/\/10\.40\.0\.13:9345$/);
    const joined = planSecretsOf(s).filter((p) => p.metadata.annotations?.['rke.cattle.io/joined-to'] === joinUrl);

    expect(joined.map((p) => p.metadata.annotations?.['rke.cattle.io/address'])).toEqual(['10.40.0.21']);
    const bootstrap = s.objects.find((o) => o.kind === 'RKEBootstrap' && o.metadata.name === m.spec.bootstrap.configRef.name);

    expect(bootstrap?.metadata.annotations?.['rke.cattle.io/etcd-force-remove']).toBeUndefined();
  });

  it('etcd-hook: the leaving member\'s Node was cordoned when its drain began, not at its last heartbeat', () => {
    const s = buildScenario('etcd-hook');
    const m = machine(s, LEAVING_ETCD_MACHINE);
    const node = Object.values(s.downstream).flat().find((o) => o.kind === 'Node' && o.metadata.name === m.status.nodeRef?.name) as any;

    expect(node.spec.unschedulable).toBe(true);
    // The node lifecycle controller stamps the unschedulable taint as it adds it, and never again.
    expect(node.spec.taints.find((t: any) => t.key === 'node.kubernetes.io/unschedulable')).toStrictEqual({
      key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: m.metadata.deletionTimestamp
    });
  });

  it('healthy: five joined nodes, every plan in sync with healthy probes', () => {
    const s = buildScenario('healthy');

    expect(machinesOf(s)).toHaveLength(5);
    expect(machinesOf(s).filter((m) => m.metadata.labels?.['rke.cattle.io/etcd-role'] === 'true')).toHaveLength(3);
    for (const m of machinesOf(s)) {
      expect(m.status.conditions.every((c) => c.status === 'True')).toBe(true);
      const secret = planSecretFor(s, m) as SecretObject;

      expect(b64(secret.data['applied-checksum'])).toBe(sha256(b64(secret.data.plan)));
      const probes = JSON.parse(b64(secret.data['probe-statuses'])) as Record<string, { healthy: boolean }>;

      expect(Object.values(probes).every((p) => p.healthy)).toBe(true);
    }
    expect(s.expected).toEqual({});
    expect(provisioningCluster(s).status.conditions.find((c) => c.type === 'Updated')?.status).toBe('True');
  });

  it('imported: Nodes and management Nodes only, one NotReady', () => {
    const s = buildScenario('imported');

    expect(machinesOf(s)).toHaveLength(0);
    expect(planSecretsOf(s)).toHaveLength(0);
    expect(s.clusters[0].kind).toBe('imported');
    const notReady = nodesOf(s).filter((n) => n.status.conditions.find((c) => c.type === 'Ready')?.status !== 'True');

    expect(notReady.map((n) => n.metadata.name)).toEqual(['imp-worker-02']);
    const mgmt = s.objects.filter((o) => o.apiVersion === 'management.cattle.io/v3' && o.kind === 'Node');

    expect(mgmt).toHaveLength(4);
    mgmt.forEach((n) => expect((n.spec as { imported: boolean }).imported).toBe(true));
  });
});

describe('every-failure', () => {
  const s = everyFailure();
  const secretOf = (name: string) => planSecretFor(s, machine(s, name));
  const nodeNamed = (name: string) => nodesOf(s).find((n) => n.metadata.name === name);

  it('covers every failure family, each key naming a real machine or node', () => {
    expect(new Set(Object.values(EVERY_FAILURE_EXPECTED))).toEqual(new Set(FAILURE_FAMILIES));
    const names = new Set([...machinesOf(s).map((m) => m.metadata.name), ...nodesOf(s).map((n) => n.metadata.name), ...mgmtNodeNamesOf(s)]);

    for (const key of Object.keys(EVERY_FAILURE_EXPECTED)) expect(names.has(key)).toBe(true);
    for (const [key, family] of Object.entries(EVERY_FAILURE_EXPECTED)) expect(s.expected[key]).toEqual([family]);
  });

  it('shapes each plan-secret failure the way the planner reads it', () => {
    expect(secretOf('custom-1e0c8f3a5b21')?.data.appliedPlan).toBeUndefined();

    const pending = secretOf('custom-2b7d4e9c1a32') as SecretObject;

    expect(pending.data.appliedPlan).not.toBe(pending.data.plan);
    expect(b64(pending.data['applied-checksum'])).not.toBe(sha256(b64(pending.data.plan)));
    expect(Date.parse(s.now) - Date.parse(pending.metadata.annotations?.['rke.cattle.io/plan-last-updated'] as string)).toBe(25 * 60_000);

    const failed = secretOf('custom-3c9a1f7e2d43') as SecretObject;

    expect(b64(failed.data['failed-checksum'])).toBe(sha256(b64(failed.data.plan)));
    expect(Number(b64(failed.data['failure-count']))).toBeGreaterThanOrEqual(Number(b64(failed.data['failure-threshold'])));
    expect(revealSecretValue(failed.data['failed-output'])).toMatch(/rke2-agent\.service failed/);
    expect(condition(machine(s, 'custom-3c9a1f7e2d43'), 'PlanApplied')).toMatchObject({ status: 'False', message: 'error applying plan -- check rancher-system-agent.service logs on node for more information' });

    const probes = JSON.parse(b64((secretOf('custom-4d2e8b6f3c54') as SecretObject).data['probe-statuses'])) as Record<string, { healthy: boolean }>;

    expect(Object.keys(probes).filter((k) => !probes[k].healthy).sort()).toEqual(['kube-apiserver']);
    expect(condition(machine(s, 'custom-4d2e8b6f3c54'), 'Reconciled')?.message).toBe('waiting for probes: kube-apiserver');

    expect(secretOf('custom-d3b1e7f5c4a3')).toBeUndefined();
  });

  it('shapes the machine and node failures', () => {
    const deleting = machine(s, 'custom-5e3f9c7a4d65');

    expect(Date.parse(s.now) - Date.parse(deleting.metadata.deletionTimestamp as string)).toBe(40 * 60_000);
    expect(deleting.metadata.labels?.['rke.cattle.io/etcd-role']).toBeUndefined();

    const leaving = machine(s, 'custom-6f4a0d8b5e76');

    expect(condition(leaving, 'PreTerminateDeleteHookSucceeded')?.reason).toBe('WaitingExternalHook');
    const leavingUrl = secretOf('custom-6f4a0d8b5e76')?.metadata.annotations?.['rke.cattle.io/join-url'];

    expect(planSecretsOf(s).some((p) => p !== secretOf('custom-6f4a0d8b5e76') && p.metadata.annotations?.['rke.cattle.io/joined-to'] === leavingUrl)).toBe(true);

    expect(condition(machine(s, 'custom-7a5b1e9c6f87'), 'NodeHealthy')?.reason).toBe('WaitingForNodeRef');
    expect(s.objects.some((o) => o.kind === 'CustomMachine' && o.metadata.name === 'custom-8b6c2f0d7a98')).toBe(false);
    expect(machine(s, 'custom-8b6c2f0d7a98').status.failureMessage).toMatch(/has been deleted after being ready/);

    const mismatch = machine(s, 'custom-9c7d3a1e8b09');

    expect(mismatch.metadata.labels?.['rke.cattle.io/node-name']).toBe('EF-WIN-CASE');
    expect(nodeNamed('ef-win-case')?.metadata.labels?.[MACHINE_UID_LABEL]).toBeUndefined();

    const orphan = nodeNamed('ef-orphan') as NodeObject;

    expect(machinesOf(s).some((m) => m.metadata.uid === orphan.metadata.labels?.[MACHINE_UID_LABEL])).toBe(false);
    const unowned = nodeNamed('ef-external') as NodeObject;

    expect(unowned.metadata.labels?.[MACHINE_UID_LABEL]).toBeUndefined();
    expect(unowned.metadata.annotations?.['cluster.x-k8s.io/machine']).toBeUndefined();

    const gone = machine(s, 'custom-b1f9c5d3a2e1');

    expect(nodeNamed(gone.status.nodeRef?.name as string)).toBeUndefined();

    const notReady = nodeNamed(machine(s, 'custom-c2a0d6e4b3f2').status.nodeRef?.name as string) as NodeObject;
    const ready = notReady.status.conditions.find((c) => c.type === 'Ready');

    expect(ready?.status).toBe('False');
    expect(Date.parse(s.now) - Date.parse(ready?.lastTransitionTime as string)).toBe(30 * 60_000);

    const win2016 = nodeNamed(machine(s, 'custom-f5d3a9b7e6c5').status.nodeRef?.name as string) as NodeObject;

    expect(win2016.status.nodeInfo.osImage).toBe('Windows Server 2016 Datacenter');
    const small = nodeNamed(machine(s, 'custom-06e4b0c8f7d6').status.nodeRef?.name as string) as NodeObject;

    expect(parseInt(small.status.capacity.memory, 10) * 1024).toBeLessThanOrEqual(2 * 1024 ** 3);
  });

  it('names only the blocking etcd machine in the cluster conditions', () => {
    expect(provisioningCluster(s).status.conditions.find((c) => c.type === 'Updated')?.message)
      .toBe('configuring etcd node(s) custom-e4c2f8a6d5b4: waiting for plan to be applied');
  });

  it('carries an HTML payload in a condition message, verbatim', () => {
    const xss = machine(s, 'custom-17f5c1d9a8e7');

    expect(condition(xss, 'NodeHealthy')?.message).toContain(XSS_PAYLOAD);
    expect(nodeNamed(xss.status.nodeRef?.name as string)?.status.conditions.find((c) => c.type === 'Ready')?.message).toContain(XSS_PAYLOAD);
  });
});

describe('CAPI v1beta2 conversion', () => {
  const s = everyFailure();

  it('uses contract references, a name-only nodeRef and keeps the v1beta1 conditions under deprecated', () => {
    const original = machine(s, 'custom-0a11ce5e7c04');
    const v2 = toV1beta2(original);

    expect(v2.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(v2.spec.bootstrap.configRef).toEqual({
      apiGroup: 'rke.cattle.io', kind: 'RKEBootstrap', name: original.spec.bootstrap.configRef.name
    });
    expect(v2.spec.infrastructureRef).toEqual({
      apiGroup: 'rke.cattle.io', kind: 'CustomMachine', name: original.metadata.name
    });
    expect(v2.status.nodeRef).toEqual({ name: original.status.nodeRef?.name });
    expect(v2.status.deprecated.v1beta1.conditions).toEqual(original.status.conditions);
    expect(v2.status.initialization).toEqual({ bootstrapDataSecretCreated: true, infrastructureProvisioned: true });
    expect(v2.status.conditions.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True', reason: 'Ready' });
    expect(original.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
  });

  it('reports a vanished Node as NodeDeleted and lists failing parts in Ready', () => {
    const v2 = toV1beta2(machine(s, 'custom-b1f9c5d3a2e1'));

    expect(v2.status.conditions.find((c) => c.type === 'NodeHealthy')).toMatchObject({ status: 'False', reason: 'NodeDeleted' });
    expect(v2.status.conditions.find((c) => c.type === 'Ready')?.message).toMatch(/^\* NodeHealthy: Node .* has been deleted$/);
  });

  it('reports the pre-terminate hook in Deleting', () => {
    const v2 = toV1beta2(machine(s, 'custom-6f4a0d8b5e76'));

    expect(v2.status.conditions.find((c) => c.type === 'Deleting')).toMatchObject({ status: 'True', reason: 'WaitingForPreTerminateHook' });
    expect(v2.status.conditions.find((c) => c.type === 'Deleting')?.message).toContain(PRE_TERMINATE_HOOK_ANNOTATION);
  });
});

describe('Steve envelope', () => {
  const s = everyFailure();

  it('sets id, type and links the way Steve does', () => {
    const m = toSteve(machine(s, 'custom-0a11ce5e7c01'), { baseUrl: 'https://r.test' });

    expect(m.id).toBe('fleet-default/custom-0a11ce5e7c01');
    expect(m.type).toBe('cluster.x-k8s.io.machine');
    expect(m.links.self).toBe('https://r.test/v1/cluster.x-k8s.io.machines/fleet-default/custom-0a11ce5e7c01');
    expect(m.links.view).toBe('https://r.test/apis/cluster.x-k8s.io/v1beta1/namespaces/fleet-default/machines/custom-0a11ce5e7c01');
    expect(m.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    expect(m.kind).toBe('Machine');

    const mgmtNode = toSteve(s.objects.find((o) => o.apiVersion === 'management.cattle.io/v3' && o.kind === 'Node') as KubeObject, { baseUrl: 'https://r.test' });

    expect(mgmtNode.type).toBe('management.cattle.io.node');
    expect(mgmtNode.id).toMatch(/^c-m-ef4k8w2n\/machine-/);
    expect(mgmtNode.links.view).toMatch(/^https:\/\/r\.test\/v1\/management\.cattle\.io\.nodes\/c-m-ef4k8w2n\//);

    const node = toSteve(nodesOf(s)[0], { baseUrl: 'https://r.test', clusterId: 'c-m-ef4k8w2n' });

    expect(node.type).toBe('node');
    expect(node.id).toBe(nodesOf(s)[0].metadata.name);
    expect(node.links.self).toBe(`https://r.test/k8s/clusters/c-m-ef4k8w2n/v1/nodes/${ node.id }`);

    expect(toSteve(provisioningCluster(s)).type).toBe('provisioning.cattle.io.cluster');
    expect(toSteve(s.objects.find((o) => o.kind === 'RKEBootstrap') as KubeObject).type).toBe('rke.cattle.io.rkebootstrap');
  });

  it('moves a secret type to _type and honours exclude', () => {
    const secret = planSecretsOf(s)[0];
    const steve = toSteve(secret, { exclude: ['data.plan', 'data.appliedPlan'] });

    expect(steve.type).toBe('secret');
    expect(steve._type).toBe('rke.cattle.io/machine-plan');
    const data = steve.data as Record<string, string>;

    expect(data.plan).toBeUndefined();
    expect(data.appliedPlan).toBeUndefined();
    expect(data['applied-checksum']).toBe(secret.data['applied-checksum']);
    expect(secret.data.plan).toBeDefined();
  });

  it('drops links the caller may not use', () => {
    const steve = toSteve(machine(s, 'custom-0a11ce5e7c01'), { permissions: { update: false, remove: false } });

    expect(Object.keys(steve.links).sort()).toEqual(['patch', 'self', 'view']);
  });

  it('summarises machine states as wrangler does', () => {
    const state = (name: string) => (toSteve(machine(s, name)).metadata as unknown as { state: { name: string; transitioning: boolean; error: boolean; message: string } }).state;

    expect(state('custom-0a11ce5e7c01')).toEqual({
      name: 'running', error: false, transitioning: false, message: ''
    });
    expect(state('custom-7a5b1e9c6f87')).toMatchObject({ name: 'waitingfornoderef', transitioning: true });
    expect(state('custom-1e0c8f3a5b21')).toMatchObject({ name: 'reconciling', message: 'waiting for agent to check in and apply initial plan' });
    expect(state('custom-6f4a0d8b5e76').name).toBe('deleting');
    const v2 = toSteve(toV1beta2(machine(s, 'custom-7a5b1e9c6f87'))).metadata as unknown as { state: { name: string } };

    expect(v2.state.name).toBe('waitingfornoderef');
  });

  it('summarises nodes and secrets', () => {
    const ready = toSteve(nodesOf(s).find((n) => n.metadata.name === 'ef-cp-01') as NodeObject).metadata as unknown as { state: { name: string; message: string } };

    expect(ready.state).toMatchObject({ name: 'active', message: 'Resource is Ready' });
    const notReady = toSteve(nodesOf(s).find((n) => n.metadata.name === 'ef-wk-notready') as NodeObject).metadata as unknown as { state: { name: string; message: string } };

    expect(notReady.state.name).toBe('unavailable');
    expect(notReady.state.message).toMatch(/cni plugin not initialized/);
    const secret = toSteve(planSecretsOf(s)[0]).metadata as unknown as { state: { name: string; message: string } };

    expect(secret.state).toMatchObject({ name: 'active', message: 'Resource is always ready' });
  });

  it('wraps a list in a collection with a count', () => {
    const machines = machinesOf(s);
    const c = toSteveCollection(machines, { baseUrl: 'https://r.test' });

    expect(c).toMatchObject({
      type: 'collection', resourceType: 'cluster.x-k8s.io.machine', count: machines.length
    });
    expect(c.links.self).toBe('https://r.test/v1/cluster.x-k8s.io.machines');
    expect(c.data.map((d) => d.id)).toEqual(machines.map((m) => `fleet-default/${ m.metadata.name }`));
  });
});

describe('capi-v1beta2', () => {
  const s = buildScenario('capi-v1beta2');

  it('serves every Machine as Rancher 2.14 does: v1beta2, contract references, v1beta2 conditions', () => {
    const machines = s.objects.filter((o) => o.kind === 'Machine') as any[];

    expect(machines.length).toBe(8);
    for (const m of machines) {
      expect(m.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
      expect(Object.keys(m.spec.infrastructureRef).sort()).toStrictEqual(['apiGroup', 'kind', 'name']);
      expect(Object.keys(m.spec.bootstrap.configRef).sort()).toStrictEqual(['apiGroup', 'kind', 'name']);
      expect(m.status.conditions.map((c: any) => c.type)).toEqual(expect.arrayContaining(['Available', 'Ready', 'NodeHealthy', 'Deleting']));
      expect(m.status.deprecated.v1beta1.conditions.length).toBeGreaterThan(0);
    }
    const gone = machines.find((m) => m.metadata.name === V1BETA2_NODE_GONE_MACHINE);

    expect(gone.status.nodeRef).toStrictEqual({ name: 'v2-wk-node-gone' });
    expect(gone.status.conditions.find((c: any) => c.type === 'NodeHealthy').reason).toBe('NodeDeleted');
    const owned = s.objects.filter((o) => o.metadata.ownerReferences?.some((r) => r.kind === 'Machine'));

    expect(owned.length).toBeGreaterThan(0);
    expect(owned.flatMap((o) => o.metadata.ownerReferences ?? []).filter((r) => r.kind === 'Machine').map((r) => r.apiVersion)).not.toContain('cluster.x-k8s.io/v1beta1');
  });
});

describe('join-keys', () => {
  const s = buildScenario('join-keys');
  const machines = machinesOf(s) as any[];
  const keysOf = (name: string) => {
    const m = machines.find((x) => x.metadata.name === name);
    const node = nodesOf(s).find((n) => n.metadata.labels?.[MACHINE_UID_LABEL] === m.metadata.uid || n.metadata.name === m.status.nodeRef?.name ||
      n.metadata.annotations?.['cluster.x-k8s.io/machine'] === name) as NodeObject;

    return {
      label:      node.metadata.labels?.[MACHINE_UID_LABEL] === m.metadata.uid,
      nodeRef:    m.status.nodeRef?.name === node.metadata.name,
      annotation: node.metadata.annotations?.['cluster.x-k8s.io/machine'] ?? null,
    };
  };

  it('links each of its workers to its machine by exactly the keys it says', () => {
    expect(keysOf(JOIN_KEY_MACHINES.label)).toStrictEqual({
      label: true, nodeRef: false, annotation: null
    });
    expect(keysOf(JOIN_KEY_MACHINES.nodeRef)).toStrictEqual({
      label: false, nodeRef: true, annotation: null
    });
    expect(keysOf(JOIN_KEY_MACHINES.annotation)).toStrictEqual({
      label: false, nodeRef: false, annotation: JOIN_KEY_MACHINES.annotation
    });
    expect(keysOf(JOIN_KEY_MACHINES.disagree)).toStrictEqual({
      label: true, nodeRef: true, annotation: JOIN_KEY_MACHINES.annotation
    });
  });
});

describe('large()', () => {
  const a = large(800, { seed: 42 });

  it('has n hosts, each machine with every object, and about the requested share broken', () => {
    const machines = machinesOf(a);
    const machineless = Object.keys(a.expected).filter((k) => ['orphan-node', 'machine-missing'].includes(a.expected[k][0]));

    expect(machineless.length).toBeGreaterThan(0);
    expect(machines.length + machineless.length).toBe(800);
    const uids = new Set(machines.map((m) => m.metadata.uid));

    for (const name of machineless) {
      const node = nodesOf(a).find((n) => n.metadata.name === name);

      if (a.expected[name][0] === 'machine-missing') {
        // The Node is gone with its machine; Rancher's management Node still names the machine.
        expect(node).toBeUndefined();
        const mgmt = a.objects.find((o) => o.kind === 'Node' && o.metadata.labels?.['management.cattle.io/nodename'] === name);

        expect((mgmt?.status as any)?.nodeAnnotations?.['cluster.x-k8s.io/machine']).toMatch(/^custom-/);
        continue;
      }
      expect(uids.has(node?.metadata.labels?.[MACHINE_UID_LABEL] ?? '')).toBe(false);
    }
    const count = (kind: string) => a.objects.filter((o) => o.kind === kind).length;

    expect(count('RKEBootstrap')).toBe(machines.length);
    expect(count('CustomMachine')).toBe(machines.length - Object.values(a.expected).filter((f) => f[0] === 'infrastructure-missing').length);
    expect(planSecretsOf(a).length).toBe(machines.length - Object.values(a.expected).filter((f) => f[0] === 'plan-secret-missing').length);
    const broken = Object.keys(a.expected).length;

    expect(broken).toBeGreaterThan(800 * 0.015);
    expect(broken).toBeLessThan(800 * 0.06);
    const names = new Set([...machines.map((m) => m.metadata.name), ...nodesOf(a).map((n) => n.metadata.name), ...mgmtNodeNamesOf(a)]);

    Object.keys(a.expected).forEach((k) => expect(names.has(k)).toBe(true));
  });

  it('is a pure function of n and seed', () => {
    expect(JSON.stringify(large(800, { seed: 42 }))).toBe(JSON.stringify(a));
    const other = large(300, { seed: 43 });

    expect(Object.keys(other.expected)).not.toEqual(Object.keys(large(300, { seed: 42 }).expected));
  });

  it('breaks nothing at fraction 0 and rejects nonsense sizes', () => {
    expect(large(50, { brokenFraction: 0 }).expected).toEqual({});
    expect(() => large(0)).toThrow(/positive integer/);
  });
});

describe('builders', () => {
  it('formats the planner message like rancher: sorted, three names, detail only for one', () => {
    const n = (machineName: string, tier: 'etcd' | 'worker', plannerMessage: string) => ({
      machineName, tier, plannerMessage
    });

    expect(plannerClusterMessage([n('b', 'worker', 'x'), n('a', 'worker', 'y'), n('d', 'worker', 'z'), n('c', 'worker', 'w'), n('e', 'etcd', '')]))
      .toBe('configuring worker node(s) a,b,c and 1 more');
    expect(plannerClusterMessage([n('w1', 'worker', 'waiting for plan to be applied'), n('e1', 'etcd', 'waiting for probes: etcd')]))
      .toBe('configuring etcd node(s) e1: waiting for probes: etcd');
    expect(plannerClusterMessage([n('w1', 'worker', '')])).toBe('');
  });

  it('writes last-apply-time in Go time.UnixDate', () => {
    expect(goUnixDate('2026-01-05T08:04:03Z')).toBe('Mon Jan  5 08:04:03 UTC 2026');
    expect(goUnixDate('2026-01-15T16:04:02Z')).toBe('Thu Jan 15 16:04:02 UTC 2026');
  });

  it('serves registration commands flat from Norman and under status from Kubernetes', () => {
    const k8s = clusterRegistrationToken({
      mgmtId: 'c-m-abc12345', createdAt: '2026-01-01T00:00:00Z', serverUrl: 'https://r.test'
    });
    const status = k8s.status as Record<string, string>;

    expect(k8s).toMatchObject({
      apiVersion: 'management.cattle.io/v3', kind: 'ClusterRegistrationToken', metadata: { name: 'default-token', namespace: 'c-m-abc12345' }
    });
    expect(status.nodeCommand).toBe(`curl -fL https://r.test/system-agent-install.sh | sudo  sh -s - --server https://r.test --label 'cattle.io/os=linux' --token ${ status.token }`);
    expect(status.insecureWindowsNodeCommand).toMatch(/^curl\.exe --insecure -fL https:\/\/r\.test\/wins-agent-install\.ps1 .* -Worker$/);
    const norman = normanRegistrationToken(k8s, 'https://r.test');

    expect(norman).toMatchObject({
      id: 'c-m-abc12345:default-token', type: 'clusterRegistrationToken', clusterId: 'c-m-abc12345', token: status.token, windowsNodeCommand: status.windowsNodeCommand, manifestUrl: status.manifestUrl
    });
    expect(norman.status).toBeUndefined();
  });
});
