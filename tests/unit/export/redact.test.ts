import { PLAN_SECRET_STATUS_KEYS, diagnose } from '@pkg/node-health/engine';
import {
  REDACTED, REDACTION_KINDS, emptySummary, isSecretKey, redactObject, redactObjects, redactString
} from '@pkg/node-health/export';
import type { RedactionKind, RedactionSummary } from '@pkg/node-health/export';
import { summaryCounter } from '@pkg/node-health/export/redact';

function redacted(text: string): { out: string; summary: Partial<RedactionSummary> } {
  const summary = emptySummary();
  const out = redactString(text, summaryCounter(summary));

  return { out, summary: Object.fromEntries(Object.entries(summary).filter(([, v]) => v > 0)) };
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** One value of each status key, in the form the agent writes it. */
const STATUS_VALUES: Record<string, string> = {
  'applied-checksum':  'a'.repeat(64),
  'failed-checksum':   '0123456789abcdef'.repeat(4),
  'failure-count':     '2',
  'success-count':     '15',
  'last-apply-time':   'Mon Jan  2 15:04:05 UTC 2026',
  'probe-statuses':    '{"calico":{"healthy":true,"successCount":1},"kube-apiserver":{"healthy":false,"failureCount":3}}',
  'plan-state':        'failed',
  'plan-revision':     '7',
  'max-failures':      '5',
  'failure-threshold': '3',
};

function planSecret(shape: 'kubectl' | 'steve'): Record<string, any> {
  const base = {
    metadata: {
      name:          'custom-a1-machine-plan',
      namespace:     'fleet-default',
      labels:        { 'rke.cattle.io/machine-name': 'custom-a1' },
      annotations:   { 'rke.cattle.io/plan-last-updated': '2026-01-01T00:00:00Z' },
      managedFields: [{ manager: 'rancher', fieldsV1: { 'f:data': {} } }],
    },
    data: {
      plan:                      b64('{"files":[{"content":"PLAN-SECRET"}]}'),
      appliedPlan:               b64('APPLIED-SECRET'),
      'applied-output':          b64('OUTPUT-SECRET'),
      'failed-output':           b64('FAILED-SECRET'),
      'applied-periodic-output': b64('PERIODIC-SECRET'),
      'some-future-key':         b64('FUTURE-SECRET'),
      ...Object.fromEntries(Object.entries(STATUS_VALUES).map(([k, v]) => [k, b64(v)])),
    },
  };

  return shape === 'kubectl' ? {
    apiVersion: 'v1', kind: 'Secret', type: 'rke.cattle.io/machine-plan', ...base
  } : {
    id: 'fleet-default/custom-a1-machine-plan', type: 'secret', _type: 'rke.cattle.io/machine-plan', ...base
  };
}

describe('redactString', () => {
  it.each([
    ['Linux registration command', 'curl -fL https://r.example/system-agent-install.sh | sudo sh -s - --server https://r.example --token abcdef0123456789 --ca-checksum 0f0f', 'abcdef0123456789', 'token'],
    ['PowerShell -Token', './install.ps1 -Server https://r.example -Token win0123456789 -Worker', 'win0123456789', 'token'],
    ['--flag=value', 'rke2 server --agent-token=agent0123456789 --node-name n1', 'agent0123456789', 'token'],
    ['JSON argument list', '["server","--token","json0123456789","--node-name","n1"]', 'json0123456789', 'token'],
    ['RKE2 join token', 'K10a1b2c3d4e5f60718293a4b5c6d7e8f9::server:join0123456789', 'join0123456789', 'token'],
    ['JWT', 'token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.jwtsig0123456789', 'jwtsig0123456789', 'token'],
    ['bearer header', 'Authorization: Bearer bear0123456789', 'bear0123456789', 'token'],
    ['password assignment', 'login failed: password=pw0123456789; retrying', 'pw0123456789', 'password'],
    ['quoted JSON field', '{"apiKey":"key 0123456789","user":"x"}', 'key 0123456789', 'token'],
    ['credentials in a URL', 'proxy http://user:url0123456789@proxy.example:3128 refused', 'url0123456789', 'urlCredentials'],
    ['import URL', 'kubectl apply -f https://r.example/v3/import/imp0123456789abcdef_c-m-abc.yaml', 'imp0123456789abcdef', 'token'],
    ['private key', 'key: -----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIpk0123456789\n-----END EC PRIVATE KEY-----', 'pk0123456789', 'privateKey'],
    ['certificate cut short', '-----BEGIN CERTIFICATE-----\nMIIBcrt0123456789…', 'crt0123456789', 'certificate'],
    ['kubeconfig', 'apiVersion: v1\nkind: Config\nclusters:\n- cluster: {server: https://x}\nusers:\n- user: {token: kc0123456789}', 'kc0123456789', 'kubeconfig'],
    ['kubeconfig data field', 'client-key-data: a2MwMTIzNDU2Nzg5', 'a2MwMTIzNDU2Nzg5', 'kubeconfig'],
  ] as [string, string, string, RedactionKind][])('%s', (_name, text, secret, kind) => {
    const { out, summary } = redacted(text);

    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
    expect(summary[kind]).toBeGreaterThanOrEqual(1);
  });

  it('keeps the flag and the rest of a command, so support can still read it', () => {
    expect(redactString('sh -s - --server https://r.example --label cattle.io/os=linux --token abc0123456789 --worker'))
      .toBe(`sh -s - --server https://r.example --label cattle.io/os=linux --token ${ REDACTED } --worker`);
  });

  it.each([
    'waiting for agent to check in and apply initial plan',
    'configuring etcd node(s) custom-2d74d4c9a104: waiting for probes: etcd, kube-apiserver',
    'error applying plan -- check rancher-system-agent.service logs on node for more information',
    'secret "custom-a1-machine-plan" not found; secretName: custom-a1-machine-plan, tokenName=default-token',
    'Basic configuration is fine, Bearer token missing',
    'Failed to find VM in vCenter: vm "win-1" not found',
  ])('leaves ordinary cluster text alone: %s', (text) => {
    expect(redacted(text)).toEqual({ out: text, summary: {} });
  });

  it('does not count a marker it already placed', () => {
    const once = redactString('--token abc0123456789');
    const summary = emptySummary();

    expect(redactString(once, summaryCounter(summary))).toBe(once);
    expect(Object.values(summary).every((v) => v === 0)).toBe(true);
  });
});

describe('isSecretKey', () => {
  it.each(['password', 'sshPassword', 'token', 'client-key-data', 'kubeConfig', 'etcd-s3-secret-key', 'apiKey', 'CATTLE_AGENT_PASSWORD'])('%s is secret', (key) => {
    expect(isSecretKey(key)).toBe(true);
  });
  it.each(['cloudCredentialSecretName', 'rke.cattle.io/plan-secret-name', 'secretName', 'tokenName', 'certificateRotationGeneration', 'rotateCertificates', 'name', 'message'])('%s is not', (key) => {
    expect(isSecretKey(key)).toBe(false);
  });
});

describe('redactObject', () => {
  it.each(['kubectl', 'steve'] as const)('keeps only the status keys of a machine-plan secret (%s)', (shape) => {
    const secret = planSecret(shape);
    const summary = emptySummary();
    const out = redactObject(secret, summaryCounter(summary)) as Record<string, any>;

    expect(Object.keys(out.data).sort()).toEqual([...PLAN_SECRET_STATUS_KEYS].sort());
    expect(out.data['failure-count']).toBe(secret.data['failure-count']);
    expect(summary.planSecretData).toBe(6);
    expect(out.metadata.managedFields).toBeUndefined();
    expect(summary.managedFields).toBe(1);
    expect(JSON.stringify(out)).not.toMatch(/PLAN-SECRET|APPLIED-SECRET|OUTPUT-SECRET|FAILED-SECRET|PERIODIC-SECRET|FUTURE-SECRET/);
    expect(JSON.stringify(out)).not.toMatch(/applied-output|failed-output|appliedPlan|"plan"/);
  });

  it.each([
    ['applied-checksum', '-----BEGIN RSA PRIVATE KEY-----\nMIIE', 'not a SHA-256 checksum'],
    ['failed-checksum', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.sig', 'not a SHA-256 checksum'],
    ['failure-count', 'password=hunter2', 'not a whole number'],
    ['last-apply-time', 'K10abc::server:joinsecret', 'not a time as the agent writes it'],
    ['probe-statuses', '{"calico":{"healthy":true,"token":"x"}}', 'a probe field the agent does not write'],
    ['probe-statuses', '{"-----BEGIN KEY":{"healthy":true}}', 'a probe name that is not a name'],
    ['probe-statuses', '"just text"', 'not a JSON object of probes'],
    ['plan-state', 'hunter2', 'not a plan state'],
  ])('leaves out a %s value that does not have its shape, and says why', (key, value, reason) => {
    const secret = planSecret('kubectl');

    secret.data[key] = b64(value);
    const { objects, summary, leftOut } = redactObjects([secret]);

    expect(objects[0].data[key]).toBeUndefined();
    expect(summary.planStatusValue).toBe(1);
    expect(leftOut).toEqual([{
      object: 'Secret fleet-default/custom-a1-machine-plan', field: `data.${ key }`, reason
    }]);
  });

  it('keeps max-failures and failure-threshold of -1, the values Rancher writes on every plan', () => {
    const secret = planSecret('kubectl');

    secret.data['max-failures'] = b64('-1');
    secret.data['failure-threshold'] = b64('-1');
    const { objects, leftOut } = redactObjects([secret]);

    expect(leftOut).toEqual([]);
    expect(objects[0].data['max-failures']).toBe(b64('-1'));
    expect(objects[0].data['failure-threshold']).toBe(b64('-1'));
  });

  it('leaves out a status value that is an object where base64 text belongs', () => {
    const secret = planSecret('steve');

    secret.data['applied-checksum'] = { key: 'PRIVATE' };
    const { objects, leftOut } = redactObjects([secret]);

    expect(JSON.stringify(objects)).not.toContain('PRIVATE');
    expect(leftOut.map((v) => v.reason)).toEqual(['not base64 text']);
  });

  it('never changes the objects it is given', () => {
    const secret = planSecret('kubectl');
    const before = JSON.stringify(secret);

    redactObjects([secret, { ...secret, type: 'Opaque' }]);
    expect(JSON.stringify(secret)).toBe(before);
  });

  it.each([
    ['kubectl', {
      apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'db' }, data: { password: b64('x') }
    }],
    ['kubectl token', {
      apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name: 'sa-token' }
    }],
    ['steve', {
      id: 'fleet-default/x', type: 'secret', _type: 'Opaque', metadata: { name: 'x' }, data: {}
    }],
    ['norman', {
      id: 'cattle-global-data:cc-1', type: 'cloudCredential', name: 'cc-1'
    }],
  ])('drops any other secret entirely (%s)', (_shape, secret) => {
    const { objects, summary } = redactObjects([secret]);

    expect(objects).toEqual([]);
    expect(summary.secret).toBe(1);
  });

  it('drops objects the diagnosis does not use', () => {
    const { objects, summary } = redactObjects([{
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { x: 'y' }
    }, 'text', null]);

    expect(objects).toEqual([]);
    expect(summary.unusedObject).toBe(3);
  });

  const commands = {
    token:                      'reg0123456789',
    command:                    'kubectl apply -f https://r.example/v3/import/reg0123456789_c-m-1.yaml',
    insecureCommand:            'curl --insecure -sfL https://r.example/v3/import/reg0123456789_c-m-1.yaml | kubectl apply -f -',
    nodeCommand:                'curl -fL https://r.example/system-agent-install.sh | sudo sh -s - --server https://r.example --token reg0123456789',
    insecureNodeCommand:        'curl --insecure -fL https://r.example/system-agent-install.sh | sudo sh -s - --token reg0123456789',
    windowsNodeCommand:         './install.ps1 -Token reg0123456789 -Worker',
    insecureWindowsNodeCommand: './install.ps1 -Token reg0123456789 -Worker',
    manifestUrl:                'https://r.example/v3/import/reg0123456789_c-m-1.yaml',
  };

  it.each([
    ['kubernetes', {
      apiVersion: 'management.cattle.io/v3', kind: 'ClusterRegistrationToken', metadata: { name: 'default-token', namespace: 'c-m-1' }, spec: { clusterName: 'c-m-1' }, status: commands
    }],
    ['steve', {
      id: 'c-m-1/default-token', type: 'management.cattle.io.clusterregistrationtoken', metadata: { name: 'default-token', namespace: 'c-m-1' }, status: commands
    }],
    ['norman', {
      id: 'c-m-1:default-token', type: 'clusterRegistrationToken', name: 'default-token', clusterId: 'c-m-1', ...commands
    }],
  ])('leaves a registration token out entirely (%s)', (_shape, token) => {
    const { objects, summary } = redactObjects([token]);

    expect(objects).toEqual([]);
    expect(summary.registrationToken).toBe(1);
  });

  it('keeps only the fields the diagnosis reads: environment, configuration and annotations nobody reads go', () => {
    const cluster = {
      apiVersion: 'provisioning.cattle.io/v1',
      kind:       'Cluster',
      metadata:   {
        name: 'c1', namespace: 'fleet-default', annotations: { 'example.com/db-password': 'ann0123456789', 'kubectl.kubernetes.io/last-applied-configuration': '{"la0123456789":1}' }
      },
      spec:       {
        cloudCredentialSecretName: 'cattle-global-data:cc-kept',
        agentEnvVars:              [{ name: 'HTTP_PROXY', value: 'http://proxy.example:3128' }, { name: 'SOME_TOKEN', value: 'env0123456789' }],
        rkeConfig:                 { machineGlobalConfig: { 'etcd-s3-secret-key': 's3k0123456789', cni: 'calico' }, rotateCertificates: { generation: 2 } },
      },
      status: { clusterName: 'c-m-1', certificateRotationGeneration: 1 },
    };
    const summary = emptySummary();
    const out = redactObject(cluster, summaryCounter(summary)) as Record<string, any>;
    const text = JSON.stringify(out);

    expect(text).not.toMatch(/ann0123456789|la0123456789|env0123456789|s3k0123456789|proxy\.example/);
    expect(out.spec).toEqual({ rkeConfig: { rotateCertificates: { generation: 2 } } });
    expect(out.metadata).toEqual({ name: 'c1', namespace: 'fleet-default' });
    expect(out.status).toEqual({ clusterName: 'c-m-1', certificateRotationGeneration: 1 });
    expect(summary).toMatchObject({ unreadField: 9, lastAppliedConfiguration: 1 });
  });

  it('keeps only the path of Steve links (it names the downstream cluster) and drops actions', () => {
    const node = {
      id:       'n1',
      type:     'node',
      links:    { self: 'https://rancher.example.com/k8s/clusters/c-m-1/v1/nodes/n1', remove: 'https://rancher.example.com/x' },
      actions:  { cordon: 'https://rancher.example.com/y' },
      metadata: { name: 'n1' },
    };
    const out = redactObject(node) as Record<string, any>;

    expect(out.links).toEqual({ self: '/k8s/clusters/c-m-1/v1/nodes/n1' });
    expect(out.actions).toBeUndefined();
    expect(diagnose([out], { now: '2026-01-01T00:00:00Z' }).records[0].cluster?.mgmtId).toBe('c-m-1');
  });

  it('counts every kind it names', () => {
    expect(Object.keys(emptySummary()).sort()).toEqual([...REDACTION_KINDS].sort());
  });
});

describe('redactString: credentials known by their form', () => {
  it.each([
    ['Authorization: token ghp_0123456789abcdefghijABCDEFGHIJ012345', 'ghp_0123'],
    ['pull failed: authorization=Digest abc0123456789', 'abc0123456789'],
    ['slack xoxb-1234567890-abcdefghij', 'xoxb-1234567890'],
    ['aws_access_key_id=AKIAABCDEFGHIJKLMNOP', 'AKIAABCDEFGHIJKLMNOP'],
    ['key id AKIAQRSTUVWXYZ234567 in a message', 'AKIAQRSTUVWXYZ234567'],
    ['key LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0K', 'LS0tLS1CRUdJTiBPUEVOU1NI'],
    ['PuTTY-User-Key-File-3: ssh-rsa\nPrivate-Lines: 14\nAAAAB3Nza\nPrivate-MAC: 0a1b2c', 'AAAAB3Nza'],
  ])('%s', (text, secret) => {
    const { out } = redacted(text);

    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });
});
