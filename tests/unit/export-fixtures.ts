/**
 * Fixtures for the export tests: a realistic cluster from the scenarios, with a unique marker in every
 * secret value, token, password-like annotation and registration command, including the places where
 * credentials end up by accident (condition messages, proxy URLs, node arguments, last-applied copies).
 */
import { buildScenario, everyFailure } from '../../scenarios/catalog';
import { base64Encode } from '../../scenarios/encoding';
import { canaryValues, normanRegistrationToken } from '../../scenarios/builders';
import { toSteve } from '../../scenarios/steve';
import type { KubeObject, Scenario } from '../../scenarios/types';

export const MARK = 'CANARY7Q';

/** Every object of a scenario, kubectl-shaped: Rancher's own objects, then each cluster's Nodes. */
export function kubectlObjects(s: Scenario): KubeObject[] {
  return [...s.objects, ...Object.values(s.downstream).flat()];
}

/** The same objects as the tab receives them from Steve (downstream Nodes through /k8s/clusters/<id>/v1). */
export function steveObjects(s: Scenario): KubeObject[] {
  return [
    ...s.objects.map((o) => toSteve(o, { now: s.now })),
    ...Object.entries(s.downstream).flatMap(([clusterId, nodes]) => nodes.map((o) => toSteve(o, { clusterId, now: s.now }))),
  ];
}

export function scenario(name: string, secretMarker?: string): Scenario {
  return buildScenario(name, secretMarker ? { secretMarker } : {});
}

function annotate(obj: KubeObject, annotations: Record<string, string>): void {
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), ...annotations };
}

const PRIVATE_KEY = (m: string) => `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${ m }\n-----END RSA PRIVATE KEY-----\n`;
const CERTIFICATE = (m: string) => `-----BEGIN CERTIFICATE-----\nMIIBkTCB+wIJA${ m }\n-----END CERTIFICATE-----`;
const KUBECONFIG = (m: string) => [
  'apiVersion: v1', 'kind: Config', 'clusters:', '- name: local', '  cluster:', '    server: https://rancher.example.com/k8s/clusters/local',
  'users:', '- name: agent', '  user:', `    token: ${ m }`,
].join('\n');

export interface CanaryFixture {
  scenario: Scenario;
  /** kubectl-shaped, with the additions: Rancher's objects, the downstream Nodes, a /v3 registration token */
  objects: KubeObject[];
  /** the same, as the tab reads them from Steve (no /v3 token) */
  steve: KubeObject[];
  /** every marker placed, each unique */
  markers: string[];
  /** raw sensitive values that must not appear either (base64 plan data and the like) */
  canaries: string[];
}

/**
 * The every-failure cluster with markers everywhere a secret can be: the scenario's own (plan secrets,
 * agent token secrets, registration token and commands, join tokens), plus hostile additions below.
 */
export function canaryFixture(): CanaryFixture {
  const s = everyFailure({ secretMarker: MARK });
  const objects = JSON.parse(JSON.stringify(kubectlObjects(s))) as KubeObject[];
  const markers: string[] = [MARK];
  let n = 0;
  const mark = () => {
    const m = `${ MARK }-${ String(++n).padStart(2, '0') }x`;

    markers.push(m);

    return m;
  };
  /** For data fields, where the marker is stored base64-encoded: the encoded text is what must not leak. */
  const markEncoded = () => {
    const encoded = base64Encode(`${ MARK }-${ String(++n).padStart(2, '0') }x`);

    markers.push(encoded);

    return encoded;
  };
  const find = (pred: (o: KubeObject) => boolean) => {
    const found = objects.find(pred);

    if (!found) {
      throw new Error('fixture: object not found');
    }

    return found;
  };

  const cluster = find((o) => o.kind === 'Cluster' && o.apiVersion.startsWith('provisioning.cattle.io'));
  const spec = cluster.spec as Record<string, any>;

  spec.agentEnvVars = [
    { name: 'HTTPS_PROXY', value: `http://proxyuser:${ mark() }@proxy.corp.example:3128` },
    { name: 'CATTLE_AGENT_PASSWORD', value: mark() },
  ];
  spec.rkeConfig = {
    ...(spec.rkeConfig ?? {}),
    machineGlobalConfig: {
      token: mark(), 'etcd-s3-secret-key': mark(), cni: 'calico'
    }
  };
  annotate(cluster, {
    'example.com/db-password':                          mark(),
    'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ spec: { note: `applied ${ mark() }` } }),
    'example.com/registry':                             `https://admin:${ mark() }@registry.corp.example/v2`,
  });
  (cluster.metadata as Record<string, any>).managedFields = [{
    manager: 'kubectl', operation: 'Apply', fieldsV1: { [`f:${ mark() }`]: {} }
  }];

  const machine = find((o) => o.kind === 'Machine' && o.metadata.name === 'custom-c2a0d6e4b3f2');
  const status = machine.status as Record<string, any>;

  status.conditions = [...status.conditions, {
    type: 'ExampleLogin', status: 'False', reason: 'LoginFailed', message: `login failed: password=${ mark() }; Authorization: Bearer ${ mark() }abcdef`, lastTransitionTime: s.now,
  }];
  annotate(machine, {
    'example.com/kubeconfig': KUBECONFIG(mark()),
    'example.com/key':        PRIVATE_KEY(mark()),
    'example.com/cert':       CERTIFICATE(mark()),
    'example.com/sa':         `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.${ mark() }sig`,
    'example.com/win':        `./install.ps1 -Server https://rancher.example.com -Token ${ mark() } -Worker`,
  });

  const node = find((o) => o.kind === 'Node' && o.apiVersion === 'v1' && o.metadata.name === 'ef-wk-notready');

  annotate(node, {
    'rke2.io/node-args':   JSON.stringify(['agent', '--token', mark(), '--agent-token', mark(), '--node-name', 'ef-wk-notready']),
    'example.com/join':    `K10${ 'ab12'.repeat(8) }::server:${ mark() }`,
    'example.com/connect': `{"kubeConfig":"${ mark() }","namespace":"fleet-default","secretName":"custom-c2a0d6e4b3f2-machine-plan"}`,
  });

  const planSecret = find((o) => o.kind === 'Secret' && o.type === 'rke.cattle.io/machine-plan');

  planSecret.stringData = { extra: mark() };
  (planSecret.data as Record<string, string>)['new-secret-key'] = markEncoded();

  const infra = objects.find((o) => o.apiVersion?.startsWith('rke-machine.cattle.io') || o.kind === 'CustomMachine');

  if (infra) {
    infra.spec = {
      ...(infra.spec as object ?? {}), sshPassword: mark(), cloudCredentialSecretName: 'cattle-global-data:cc-kept'
    };
  }

  objects.push(
    {
      apiVersion: 'v1',
      kind:       'ConfigMap',
      metadata:   {
        name: 'settings', namespace: 'fleet-default', uid: 'u-cm', resourceVersion: '1', creationTimestamp: s.now
      },
      data: { note: mark() },
    },
    {
      apiVersion: 'v1',
      kind:       'Secret',
      type:       'Opaque',
      metadata:   {
        name: 'db', namespace: 'fleet-default', uid: 'u-db', resourceVersion: '1', creationTimestamp: s.now, annotations: { note: mark() }
      },
      data:       { password: markEncoded() },
      stringData: { password: mark() },
    },
  );
  const token = find((o) => o.kind === 'ClusterRegistrationToken');
  const mgmtId = Object.keys(s.downstream)[0];
  const isDownstream = (o: KubeObject) => o.kind === 'Node' && o.apiVersion === 'v1';
  const steve = [
    ...objects.filter((o) => !isDownstream(o)).map((o) => toSteve(o, { now: s.now })),
    ...objects.filter(isDownstream).map((o) => toSteve(o, { clusterId: mgmtId, now: s.now })),
  ];

  objects.push(normanRegistrationToken(token) as KubeObject);

  const canaries = canaryValues(objects, MARK).filter((v) => v.length >= 8);

  return {
    scenario: s, objects, steve, markers, canaries
  };
}

/** Markers (and raw secret values) found in a text. */
export function leaks(text: string, fixture: CanaryFixture): string[] {
  return [...fixture.markers, ...fixture.canaries].filter((m) => text.includes(m));
}

export { buildScenario };
