/**
 * Fixtures for the export tests: a realistic cluster from the scenarios, with a unique marker in every
 * secret value, token, password-like annotation and registration command, including the places where
 * credentials end up by accident (condition messages, proxy URLs, node arguments, last-applied copies).
 */
import { classify, keepReadFields } from '@pkg/node-health/engine';
import { clusterTarget, sanitizePlanSecret } from '@pkg/node-health/data';
import type { ClusterTarget, DiagnosisInput } from '@pkg/node-health/data';
import type { DiagnosisReport } from '@pkg/node-health/engine';
import { redactDiagnosis, unreadableOf } from '@pkg/node-health/export';
import type { RedactedDiagnosis } from '@pkg/node-health/export';
import { buildScenario, everyFailure } from '../../../scenarios/catalog';
import { base64Encode } from '../../../scenarios/encoding';
import { canaryValues, normanRegistrationToken } from '../../../scenarios/builders';
import { toSteve } from '../../../scenarios/steve';
import type { KubeObject, Scenario } from '../../../scenarios/types';

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
  /** host names and fully qualified host names the objects hold; none may be left in an obfuscated export */
  hosts: string[];
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
  /** A marked value stored base64-encoded, as plan-secret data is: the marker and its encoding must not leak. */
  const markEncodedWith = (wrap: (m: string) => string) => {
    const m = `${ MARK }-${ String(++n).padStart(2, '0') }x`;
    const encoded = base64Encode(wrap(m));

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
  // Where the adversarial review found secrets leaving in the bundle.
  /** A marker for where a hyphen would end the token it sits in */
  const alnum = () => {
    const m = `${ MARK }${ String(++n).padStart(2, '0') }X`;

    markers.push(m);

    return m;
  };
  const rke = spec.rkeConfig as Record<string, any>;

  rke.additionalManifest = `apiVersion: v1\nkind: Secret\nmetadata: {name: tls}\nstringData:\n  tls.key: |\n    ${ PRIVATE_KEY(mark()).replace(/\n/g, '\n    ') }`;
  rke.chartValues = { 'rancher-alerting-drivers': { smtp: { auth_password: mark(), host: 'smtp.corp.example' } } };
  rke.registries = { configs: { 'registry.corp.example': { caBundle: markEncodedWith(CERTIFICATE), authConfigSecretName: 'registry-auth' } } };
  spec.agentEnvVars = [...spec.agentEnvVars, { name: 'NO_PROXY', value: mark() }];

  const driverMachine = (kind: string, name: string, driverSpec: Record<string, unknown>): KubeObject => ({
    apiVersion: 'rke-machine.cattle.io/v1',
    kind,
    metadata:   {
      name, namespace: 'fleet-default', uid: `u-${ name }`, resourceVersion: '1', creationTimestamp: s.now, labels: { 'cluster.x-k8s.io/cluster-name': cluster.metadata.name }
    },
    spec:   driverSpec,
    status: { ready: true },
  });

  objects.push(
    driverMachine('VmwarevsphereMachine', 'ef-vs-1', {
      cloudConfig: `#cloud-config\nchpasswd:\n  list: |\n    root:${ mark() }\nwrite_files:\n- path: /etc/rancher/rke2/registries.yaml\n  content: "configs: {registry.corp.example: {auth: {password: ${ mark() }}}}"`,
      cfgparam:    [`guestinfo.userdata=${ markEncodedWith((m) => `#cloud-config\npassword: ${ m }`) }`],
    }),
    driverMachine('HarvesterMachine', 'ef-hv-1', { userData: `#cloud-config\nssh_authorized_keys: [${ mark() }]` }),
    driverMachine('LinodeMachine', 'ef-ln-1', { rootPass: mark() }),
    driverMachine('Amazonec2Machine', 'ef-ec2-1', { sshKeyContents: PRIVATE_KEY(mark()) }),
    driverMachine('AzureMachine', 'ef-az-1', { customData: markEncodedWith((m) => `#!/bin/sh\nexport TOKEN=${ m }`) }),
  );

  machine.spec = { ...(machine.spec as object), env: [{ name: 'AWS_SECRET_ACCESS_KEY', value: mark() }, { name: 'API', value: `Bearer ${ mark() }` }] };
  (machine.metadata as Record<string, any>).labels['rke.cattle.io/machine-id'] = `ghp_${ alnum() }${ 'A'.repeat(20) }`;
  annotate(machine, { 'example.com/repo': `https://git:${ mark() }@git.corp.example/infra.git` });
  status.conditions = [...status.conditions, {
    type:               'ExampleAuth',
    status:             'False',
    reason:             'Unauthorized',
    message:            `GET https://rancher.corp.example/v3 failed: Authorization: token ghp_${ alnum() }${ 'B'.repeat(20) }; pull registry.corp.example:5000/rancher/agent via http://proxy.corp.example:3128; db mysql://db.corp.example:3306; clone https://deploy:${ mark() }@git.corp.example/infra.git; snapshot ef-wk-notready_backup on vsphere^ef-wk-notready-vol`,
    lastTransitionTime: s.now,
  }];

  annotate(node, {
    'example.com/putty':  `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nPrivate-Lines: 1\n${ mark() }\nPrivate-MAC: 0a1b2c3d`,
    'example.com/pem64':  `LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo${ alnum() }`,
    'example.com/aws':    `aws_access_key_id=AKIA${ alnum().padEnd(16, 'Z') } aws_secret_access_key=${ mark() }`,
    'example.com/slack':  `xoxb-${ alnum() }-0123456789`,
  });
  const mgmtNode = find((o) => o.kind === 'Node' && o.apiVersion === 'management.cattle.io/v3');

  mgmtNode.spec = { ...(mgmtNode.spec as object), customConfig: { address: '10.0.0.9', sshKey: `MIIEpAIBAAKCAQEA${ alnum() }` } };

  // Plan-secret status keys holding what no agent writes there.
  const statusSecret = objects.filter((o) => o.kind === 'Secret' && o.type === 'rke.cattle.io/machine-plan')[1];
  const statusData = statusSecret.data as Record<string, unknown>;

  statusData['applied-checksum'] = markEncodedWith((m) => PRIVATE_KEY(m));
  statusData['failed-checksum'] = markEncodedWith((m) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.${ m }`);
  statusData['probe-statuses'] = markEncodedWith((m) => JSON.stringify({ etcd: { healthy: false, token: `K10${ 'ab'.repeat(8) }::server:${ m }` } }));
  statusData['last-apply-time'] = markEncodedWith((m) => `password=${ m }`);
  statusData['failure-count'] = { nested: mark() };

  // Every other string of every object the engine reads: a marker where no rule reads, a credential in the
  // free text it reads (messages), to be cut out by the patterns.
  for (const obj of objects) {
    const kind = classify(obj);

    if (kind && kind !== 'registrationToken') {
      plantEverywhere(obj, keepReadFields(obj, kind), mark);
    }
  }

  const token = find((o) => o.kind === 'ClusterRegistrationToken');
  const mgmtId = Object.keys(s.downstream)[0];
  const isDownstream = (o: KubeObject) => o.kind === 'Node' && o.apiVersion === 'v1';
  const steve = [
    ...objects.filter((o) => !isDownstream(o)).map((o) => toSteve(o, { now: s.now })),
    ...objects.filter(isDownstream).map((o) => toSteve(o, { clusterId: mgmtId, now: s.now })),
  ];

  objects.push(normanRegistrationToken(token) as KubeObject);

  const canaries = canaryValues(objects, MARK).filter((v) => v.length >= 8);

  const hosts = [
    ...objects.filter((o) => o.kind === 'Node' && o.apiVersion === 'v1').map((o) => o.metadata.name as string),
    'rancher.corp.example', 'registry.corp.example', 'proxy.corp.example', 'db.corp.example', 'git.corp.example', 'smtp.corp.example',
  ];

  return {
    scenario: s, objects, steve, markers, canaries, hosts
  };
}

const FREE_TEXT = /(^|\.)(message|failureMessage)$/;

/**
 * Plants a marker in every string of obj that keepReadFields does not keep (it must vanish), and a credential
 * with a marker after every free text it keeps (the patterns must cut it out). What the diagnosis reads
 * otherwise (names, labels, times, states) stays as it is, so the findings stay the same.
 */
function plantEverywhere(obj: KubeObject, kept: unknown, mark: () => string, path = ''): void {
  const isRecord = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object';

  for (const [key, value] of Object.entries(obj)) {
    const here = path ? `${ path }.${ key }` : key;
    const keptValue = isRecord(kept) ? (kept as Record<string, unknown>)[key] : undefined;

    if (typeof value === 'string') {
      if (keptValue === undefined) {
        if (!(path === '' && (key === 'kind' || key === 'apiVersion' || key === 'type'))) {
          obj[key] = `${ value } ${ mark() }`;
        }
      } else if (FREE_TEXT.test(here)) {
        obj[key] = `${ value } (password=${ mark() })`;
      }
    } else if (isRecord(value) && !(path === '' && key === 'data')) {
      plantEverywhere(value as KubeObject, keptValue, mark, here);
    }
  }
}

/** Host names of the fixture found in a text (any case): an obfuscated export must hold none. */
export function hostLeaks(text: string, fixture: CanaryFixture): string[] {
  const lower = text.toLowerCase();

  return fixture.hosts.filter((h) => lower.includes(h.toLowerCase()));
}

/** Markers (and raw secret values) found in a text. */
export function leaks(text: string, fixture: CanaryFixture): string[] {
  return [...fixture.markers, ...fixture.canaries].filter((m) => text.includes(m));
}

/** A scenario as the tab's loader leaves it (plan secrets through its guard), with the clusters' targets. */
export function tabInput(objects: KubeObject[], now: string): DiagnosisInput {
  const loaded = objects.map((o) => (classify(o) === 'planSecret' ? sanitizePlanSecret(o) : o));
  const targets = loaded.filter((o) => o.kind === 'Cluster' && String(o.apiVersion).startsWith('provisioning.cattle.io/'))
    .map((c) => clusterTarget(c)).filter((x): x is ClusterTarget => !!x);

  return {
    targets, objects: loaded, availability: {}, now
  };
}

/** What the tab's session answers the export with: its input and report redacted, with what could not be read and the action log. */
export function sessionExport(
  input: DiagnosisInput, report: DiagnosisReport, issues: Parameters<typeof unreadableOf>[0] = []
): (actionLog: unknown[]) => Promise<RedactedDiagnosis> {
  return (actionLog) => Promise.resolve(redactDiagnosis(input, report, {
    cluster: report.clusters[0] ?? null, unreadable: unreadableOf(issues), actionLog
  }));
}

export { buildScenario };
