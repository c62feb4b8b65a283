/**
 * The machine plan: the plan rancher-system-agent applies, its probes, and the machine-plan Secret that
 * carries it with the agent's status keys.
 */

import {
  base64Decode, base64Encode, base64ToBytes, bytesToBase64, gunzipStored, gzipStored, utf8Decode, utf8Encode
} from '../encoding';
import { goUnixDate } from '../time';
import { Labels, SecretObject } from '../types';
import {
  MACHINE_PLAN_SECRET_TYPE, MACHINE_UID_LABEL, meta, OperatingSystem, roleLabels, Roles, runtimeOf, uidFor
} from './common';

export interface NodePlanOptions {
  kubernetesVersion: string;
  roles: Roles;
  os?: OperatingSystem;
  /** the Machine's uid: the planner labels the node with it */
  machineUid: string;
  /** the cluster join token (contains the secret marker) */
  token: string;
  /** join server URL (absent on the init node) */
  joinServer?: string;
  /** --node-name given at registration */
  nodeName?: string;
  address: string;
  internalAddress?: string;
  /** varies the plan without changing its meaning (Rancher's RESTART_STAMP) */
  restartStamp: string;
  /** cni configured in the cluster (rke2) */
  cni?: string;
}

interface ProbeDef {
  initialDelaySeconds: number;
  timeoutSeconds: number;
  successThreshold: number;
  failureThreshold: number;
  httpGet: { url: string; insecure?: boolean; clientCert?: string; clientKey?: string; caCert?: string };
}

/** Probe names the planner puts into a node's plan for these roles. */
export function probeNamesFor(roles: Roles, runtime: 'k3s' | 'rke2' = 'rke2'): string[] {
  const names = ['kubelet'];

  if (roles.etcd) names.push('etcd');
  if (roles.controlPlane) names.push('kube-apiserver', 'kube-controller-manager', 'kube-scheduler');
  if (runtime === 'rke2' && (roles.controlPlane || roles.etcd)) names.push('calico');

  return names.sort();
}

const probesCache = new Map<string, Record<string, ProbeDef>>();

function probesFor(roles: Roles, runtime: 'k3s' | 'rke2'): Record<string, ProbeDef> {
  const key = `${ runtime }:${ roles.etcd ? 1 : 0 }${ roles.controlPlane ? 1 : 0 }`;
  let cached = probesCache.get(key);

  if (!cached) {
    cached = buildProbes(roles, runtime);
    probesCache.set(key, cached);
  }

  return cached;
}

function buildProbes(roles: Roles, runtime: 'k3s' | 'rke2'): Record<string, ProbeDef> {
  const base = {
    initialDelaySeconds: 1, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 2
  };
  const tls = `/var/lib/rancher/${ runtime }/server/tls`;
  const all: Record<string, ProbeDef> = {
    kubelet:                   { ...base, httpGet: { url: 'http://127.0.0.1:10248/healthz' } },
    etcd:                      { ...base, httpGet: { url: 'http://127.0.0.1:2381/health' } },
    'kube-apiserver':          {
      ...base,
      httpGet: {
        url: 'https://127.0.0.1:6443/readyz', clientCert: `${ tls }/client-kube-apiserver.crt`, clientKey: `${ tls }/client-kube-apiserver.key`, caCert: `${ tls }/server-ca.crt`
      }
    },
    'kube-controller-manager': { ...base, httpGet: { url: 'https://127.0.0.1:10257/healthz', caCert: `${ tls }/kube-controller-manager/kube-controller-manager.crt` } },
    'kube-scheduler':          { ...base, httpGet: { url: 'https://127.0.0.1:10259/healthz', caCert: `${ tls }/kube-scheduler/kube-scheduler.crt` } },
    calico:                    { ...base, httpGet: { url: 'http://127.0.0.1:9099/liveness' } },
  };
  const out: Record<string, ProbeDef> = {};

  for (const name of probeNamesFor(roles, runtime)) {
    out[name] = all[name];
  }

  return out;
}

function yamlList(key: string, items: string[]): string {
  return items.length ? `${ key }:\n${ items.map((i) => `- ${ i }`).join('\n') }\n` : '';
}

/**
 * The plan JSON Rancher writes into the plan secret (compact, as Go's json.Marshal writes it). The
 * join token appears in the base64 config file and, in clear text, in the installer environment.
 */
export function renderNodePlan(o: NodePlanOptions): string {
  const runtime = runtimeOf(o.kubernetesVersion);
  const windows = (o.os ?? 'linux') === 'windows';
  const server = Boolean(o.roles.etcd || o.roles.controlPlane);
  const nodeLabels = [`${ MACHINE_UID_LABEL }=${ o.machineUid }`];

  if (o.roles.worker) nodeLabels.push('node-role.kubernetes.io/worker=true');
  const taints: string[] = [];

  if (o.roles.etcd && !o.roles.controlPlane && !o.roles.worker) taints.push('node-role.kubernetes.io/etcd=true:NoExecute');
  if (o.roles.controlPlane && !o.roles.worker) taints.push('node-role.kubernetes.io/control-plane=true:NoSchedule');
  let config = '';

  if (server && runtime === 'rke2') config += `cni: ${ o.cni ?? 'calico' }\n`;
  if (o.roles.etcd && !o.roles.controlPlane) config += 'disable-apiserver: true\ndisable-controller-manager: true\ndisable-scheduler: true\n';
  if (!o.roles.etcd && o.roles.controlPlane) config += 'disable-etcd: true\n';
  config += yamlList('node-external-ip', [o.address]);
  if (o.internalAddress && o.internalAddress !== o.address) config += yamlList('node-ip', [o.internalAddress]);
  config += yamlList('node-label', nodeLabels);
  if (o.nodeName) config += `node-name: ${ o.nodeName }\n`;
  config += yamlList('node-taint', taints);
  config += `private-registry: /etc/rancher/${ runtime }/registries.yaml\n`;
  if (o.joinServer) config += `server: ${ o.joinServer }\n`;
  config += `token: ${ o.token }\n`;

  const configDir = windows ? `c:/etc/rancher/${ runtime }/config.yaml.d` : `/etc/rancher/${ runtime }/config.yaml.d`;
  const image = `rancher/system-agent-installer-${ runtime }:${ o.kubernetesVersion.replace('+', '-') }`;
  const install = windows ? {
    name:    'install',
    image,
    env:     [`RESTART_STAMP=${ o.restartStamp }`, 'INSTALL_RKE2_EXEC=agent', `RKE2_TOKEN=${ o.token }`],
    args:    ['-File', 'run.ps1'],
    command: 'powershell.exe',
  } : {
    name: 'install',
    image,
    env:  [
      `RESTART_STAMP=${ o.restartStamp }`,
      `INSTALL_${ runtime.toUpperCase() }_EXEC=${ server ? 'server' : 'agent' }`,
      `${ runtime.toUpperCase() }_TOKEN=${ o.token }`,
    ],
    args:    ['-c', 'run.sh'],
    command: 'sh',
  };
  const plan = {
    files: [
      {
        content: base64Encode(config), path: `${ configDir }/50-rancher.yaml`, permissions: '0600'
      },
      {
        content: base64Encode('{}\n'), path: windows ? `c:/etc/rancher/${ runtime }/registries.yaml` : `/etc/rancher/${ runtime }/registries.yaml`, permissions: '0600'
      },
    ],
    instructions: [install],
    probes:       probesFor(o.roles, runtime),
  };

  return JSON.stringify(plan);
}

export interface ProbeStatus {
  healthy: boolean;
  successCount: number;
  failureCount: number;
}

const encodedOutputs = new WeakMap<Record<string, string>, string>();

/**
 * Output map as rancher-system-agent stores it: gzip(JSON{instruction: base64(output)}), then
 * base64 in the secret. The result is remembered per map object (treat the map as immutable), so
 * the installer output shared by a cluster's nodes is encoded once.
 */
export function encodeAgentOutput(outputs: Record<string, string>): string {
  const known = encodedOutputs.get(outputs);

  if (known !== undefined) return known;
  const json: Record<string, string> = {};

  for (const [k, v] of Object.entries(outputs)) {
    json[k] = base64Encode(v);
  }
  const encoded = bytesToBase64(gzipStored(utf8Encode(JSON.stringify(json))));

  encodedOutputs.set(outputs, encoded);

  return encoded;
}

/**
 * Fully decodes a plan-secret data value for inspection in tests: base64, then gzip (stored
 * blocks, as written here), then the base64 values of an output map, so a marker shows up as text.
 */
export function revealSecretValue(base64Value: string): string {
  const bytes = base64ToBytes(base64Value);
  const unzipped = gunzipStored(bytes);
  const text = utf8Decode(unzipped ?? bytes);

  try {
    const parsed = JSON.parse(text) as unknown;

    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const decoded: string[] = [text];

      for (const value of Object.values(parsed as Record<string, unknown>)) {
        if (typeof value === 'string' && /^[A-Za-z0-9+/]+=*$/.test(value) && value.length % 4 === 0) {
          decoded.push(base64Decode(value));
        }
      }

      return decoded.join('\n');
    }
  } catch {
    // not JSON: the decoded text is all there is
  }

  return text;
}

export interface PlanSecretOptions {
  machineName: string;
  namespace: string;
  clusterName: string;
  createdAt: string;
  /** RKEBootstrap that owns the secret; the secret is named `<bootstrapName>-machine-plan` */
  bootstrapName?: string;
  roles: Roles;
  os?: OperatingSystem;
  address: string;
  internalAddress?: string;
  /** value of the rke.cattle.io/labels annotation */
  registrationLabels?: Labels;
  initNode?: boolean;
  /** servers: `https://<address>:9345` (rke2) or `:6443` (k3s) */
  joinUrl?: string;
  /** join URL of the server this node joined ('' on the init node) */
  joinedTo?: string;
  planLastUpdated?: string;
  /** '' (the planner clears it on every plan update) or the time probes last passed */
  planProbesPassed?: string;
  plan?: string;
  appliedPlan?: string;
  appliedChecksum?: string;
  appliedOutput?: Record<string, string>;
  failedChecksum?: string;
  failedOutput?: Record<string, string>;
  failureCount?: number;
  successCount?: number;
  /** RFC 3339; written as Go time.UnixDate */
  lastApplyTime?: string;
  probeStatuses?: Record<string, ProbeStatus>;
  maxFailures?: number;
  failureThreshold?: number;
  planState?: 'pending' | 'in-progress' | 'succeeded' | 'failed' | 'cancelled';
  planRevision?: number;
}

export function planSecretName(bootstrapName: string): string {
  return `${ bootstrapName }-machine-plan`;
}

export function machinePlanSecret(o: PlanSecretOptions): SecretObject {
  const bootstrapName = o.bootstrapName ?? o.machineName;
  const labels: Labels = {
    'cluster.x-k8s.io/cluster-name': o.clusterName,
    'rke.cattle.io/cluster-name':    o.clusterName,
    'rke.cattle.io/machine-name':    o.machineName,
    ...roleLabels(o.roles),
  };

  if (o.initNode) labels['rke.cattle.io/init-node'] = 'true';
  const annotations: Labels = {
    'rke.cattle.io/address':          o.address,
    'rke.cattle.io/internal-address': o.internalAddress ?? o.address,
    'rke.cattle.io/labels':           JSON.stringify(o.registrationLabels ?? { 'cattle.io/os': o.os ?? 'linux' }),
  };

  if (o.joinUrl) annotations['rke.cattle.io/join-url'] = o.joinUrl;
  if (o.joinedTo !== undefined) annotations['rke.cattle.io/joined-to'] = o.joinedTo;
  if (o.planLastUpdated) annotations['rke.cattle.io/plan-last-updated'] = o.planLastUpdated;
  if (o.planProbesPassed !== undefined) annotations['rke.cattle.io/plan-probes-passed'] = o.planProbesPassed;

  const data: Record<string, string> = {};
  const put = (key: string, value: string | number | undefined) => {
    if (value !== undefined) data[key] = base64Encode(String(value));
  };

  put('plan', o.plan);
  if (o.appliedPlan !== undefined && o.appliedPlan === o.plan) {
    data.appliedPlan = data.plan;
  } else {
    put('appliedPlan', o.appliedPlan);
  }
  put('applied-checksum', o.appliedChecksum);
  if (o.appliedOutput) data['applied-output'] = encodeAgentOutput(o.appliedOutput);
  put('failed-checksum', o.failedChecksum);
  if (o.failedOutput) data['failed-output'] = encodeAgentOutput(o.failedOutput);
  put('failure-count', o.failureCount);
  put('success-count', o.successCount);
  put('last-apply-time', o.lastApplyTime ? goUnixDate(o.lastApplyTime) : undefined);
  put('probe-statuses', o.probeStatuses ? JSON.stringify(o.probeStatuses) : undefined);
  put('max-failures', o.maxFailures);
  put('failure-threshold', o.failureThreshold);
  put('plan-state', o.planState);
  put('plan-revision', o.planRevision);

  return {
    apiVersion: 'v1',
    kind:       'Secret',
    metadata:   meta('Secret', {
      name:            planSecretName(bootstrapName),
      namespace:       o.namespace,
      createdAt:       o.createdAt,
      labels,
      annotations,
      ownerReferences: [{
        apiVersion:         'rke.cattle.io/v1',
        kind:               'RKEBootstrap',
        name:               bootstrapName,
        uid:                uidFor('RKEBootstrap', o.namespace, bootstrapName),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
    type: MACHINE_PLAN_SECRET_TYPE,
    data,
  };
}

/** Decoded text of one data key of a Secret, or undefined when the key is absent. */
export function secretText(secret: { data?: Record<string, string> }, key: string): string | undefined {
  const value = secret.data?.[key];

  return value === undefined ? undefined : base64Decode(value);
}
