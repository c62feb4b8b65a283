/**
 * The fixture hosts: a healthy RKE2 server, and one host per failure the host check must show, with log lines
 * in the words of the public threads (failure-families.md) and seed 000. Canary values are planted where
 * credentials live on a real host: the connection info's kubeconfig, config.yaml's token lines, log lines.
 */
import type { HostFixture } from './fixture-host';

export const CANARY = {
  saToken:       'eyJhbGciOiJSUzI1NiJ9.CANARYSATOKEN0001.c2lnbmF0dXJl',
  joinToken:     'K10aa11bb22cc33dd44ee55ff66::server:CANARYJOINPASS',
  agentToken:    'CANARY-AGENT-TOKEN-7f3e',
  logToken:      'CANARY-LOG-TOKEN-91ab',
  logPassword:   'CANARY-LOG-PASSWORD-42cd',
  logBearer:     'CANARYBEARER0123456789abcdef',
  caData:        'Q0FOQVJZLUNBLURBVEEtMDAwMQ==',
};
export const CANARY_VALUES = Object.values(CANARY);

export const RANCHER = 'https://rancher.example.com';
export const PLAN_SECRET = 'custom-2d74d4c9a104-machine-plan';
export const CATTLE_ID = '2d74-cattle-id-fixture';

const CI_PATH = 'var/lib/rancher/agent/rancher2_connection_info.json';

export function connectionInfo(secretName = PLAN_SECRET, namespace = 'fleet-default'): string {
  const kubeConfig = `apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: ${ CANARY.caData }\n    server: ${ RANCHER }\n  name: cluster\n` +
    `contexts:\n- context:\n    cluster: cluster\n    user: user\n  name: context\ncurrent-context: context\nkind: Config\n` +
    `users:\n- name: user\n  user:\n    token: ${ CANARY.saToken }\n`;

  // As Rancher's config server writes it: indented by two spaces (json.Encoder with SetIndent).
  return `${ JSON.stringify({
    kubeConfig, namespace, secretName
  }, null, 2) }\n`;
}

const CONFIG = `token: ${ CANARY.joinToken }\nagent-token: ${ CANARY.agentToken }\nnode-name: dev-k8s-node01\nserver: https://10.20.1.11:9345\n`;

const AGENT_START = [
  '2026-01-15T16:04:02+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:04:02+08:00" level=info msg="Rancher System Agent version v0.3.3 (9e827a5) is starting"',
  '2026-01-15T16:04:02+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:04:02+08:00" level=info msg="Using directory /var/lib/rancher/agent/work for work"',
  '2026-01-15T16:04:02+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:04:02+08:00" level=info msg="Starting remote watch of plans"',
];

const VALID_CERTS = {
  'var/lib/rancher/rke2/server/tls/kube-controller-manager/kube-controller-manager.crt': 'Nov 20 03:12:44 2027 GMT',
  'var/lib/rancher/rke2/server/tls/kube-scheduler/kube-scheduler.crt':                   'Nov 20 03:12:44 2027 GMT',
  'var/lib/rancher/rke2/agent/serving-kubelet.crt':                                      'Nov 20 03:12:45 2027 GMT',
};

function base(overrides: Partial<HostFixture> = {}): HostFixture {
  return {
    hostname: 'dev-k8s-node01',
    files:    {
      [CI_PATH]:                           connectionInfo(),
      'etc/rancher/rke2/config.yaml':      CONFIG,
      'etc/rancher/agent/cattle-id':       `${ CATTLE_ID }\n`,
      'var/lib/rancher/rke2/server/.keep': '',
    },
    services: {
      'rancher-system-agent': {
        ActiveState: 'active', SubState: 'running', NRestarts: 0, StateChangeTimestamp: 'Mon 2025-12-01 02:00:00 UTC'
      },
      'rke2-server': {
        ActiveState: 'active', SubState: 'running', NRestarts: 0, StateChangeTimestamp: 'Mon 2025-12-01 02:01:00 UTC'
      },
    },
    journal: {
      // journalctl's own remark between boots is not a log line
      'rancher-system-agent': ['-- Boot 5c1e0a9d2b7f4e6a8c3b1d0f9e2a7c4b --', ...AGENT_START],
      'rke2-server':          ['2026-01-15T08:00:00+0000 dev-k8s-node01 rke2[811]: time="2026-01-15T08:00:00Z" level=info msg="Tunnel authorizer set Kubelet Port 10250"'],
    },
    certificates: VALID_CERTS,
    ...overrides,
  };
}

export const HOSTS: Record<string, HostFixture> = {
  healthy: base(),

  // Seed 000: the agent's credentials are refused; systemd restarts it forever.
  credentialsRefused: base({
    services: {
      'rancher-system-agent': {
        ActiveState: 'activating', SubState: 'auto-restart', NRestarts: 812, StateChangeTimestamp: 'Thu 2026-01-15 08:04:03 UTC'
      },
      'rke2-server': {
        ActiveState: 'active', SubState: 'running', StateChangeTimestamp: 'Mon 2025-12-01 02:01:00 UTC'
      },
    },
    journal: {
      'rancher-system-agent': [
        '2026-01-15T15:58:02+0800 dev-k8s-node01 rancher-system-agent[5990]: time="2026-01-15T15:58:02+08:00" level=fatal msg="error while connecting to Kubernetes cluster: the server has asked for the client to provide credentials"',
        ...AGENT_START,
        `2026-01-15T16:04:02+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:04:02+08:00" level=debug msg="using token=${ CANARY.logToken } and --token ${ CANARY.logToken } password=${ CANARY.logPassword }"`,
        `2026-01-15T16:04:03+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:04:03+08:00" level=fatal msg="error while connecting to Kubernetes cluster: the server has asked for the client to provide credentials" authorization="Bearer ${ CANARY.logBearer }" token=${ CANARY.logToken } password=${ CANARY.logPassword }`,
      ],
    },
  }),

  // rancher#54928: Rancher answered 503 at install and the file is empty.
  emptyConnectionInfo: base({
    files: {
      [CI_PATH]:                      '',
      'etc/rancher/rke2/config.yaml': CONFIG,
    },
    services: {
      'rancher-system-agent': {
        ActiveState: 'failed', SubState: 'failed', NRestarts: 5, StateChangeTimestamp: 'Thu 2026-01-15 07:30:00 UTC'
      },
    },
    journal: {
      'rancher-system-agent': [
        '2026-01-15T07:29:55+0000 node-a rancher-system-agent[412]: time="2026-01-15T07:29:55Z" level=fatal msg="Fatal error running: unable to parse connection info file: EOF"',
        '2026-01-15T07:30:00+0000 node-a rancher-system-agent[430]: time="2026-01-15T07:30:00Z" level=fatal msg="Fatal error running: unable to parse connection info file: EOF"',
      ],
    },
    certificates: {},
  }),

  // rancher#45696: agent-tls-mode strict and a CA the agent does not trust.
  fatalX509: base({
    journal: {
      'rancher-system-agent': [
        '2026-01-15T07:40:00+0000 dev-k8s-node01 rancher-system-agent[700]: time="2026-01-15T07:40:00Z" level=info msg="Detected TLS error (x509: certificate signed by unknown authority), removing CA data and trying again"',
        '2026-01-15T07:40:01+0000 dev-k8s-node01 rancher-system-agent[700]: time="2026-01-15T07:40:01Z" level=fatal msg="error while connecting to Kubernetes cluster: Get \\"https://rancher.example.com/version\\": tls: failed to verify certificate: x509: certificate signed by unknown authority"',
        '2026-01-15T07:45:01+0000 dev-k8s-node01 rancher-system-agent[731]: time="2026-01-15T07:45:01Z" level=fatal msg="Strict CA verification is enabled but encountered error finding root CA"',
      ],
    },
  }),

  // rancher#53981: plan secrets re-created by a restore with a lower resourceVersion.
  staleWatch: base({
    journal: {
      'rancher-system-agent': [
        ...AGENT_START,
        '2026-01-15T07:50:00+0000 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T07:50:00Z" level=error msg="[K8s] received secret to process that was older than the last secret operated on. (13811 vs 13925)"',
        '2026-01-15T07:50:00+0000 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T07:50:00Z" level=error msg="error syncing \'fleet-default/custom-2d74d4c9a104-machine-plan\': handler secret-watch: secret received was too old, requeuing"',
        '2026-01-15T08:05:00+0000 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T08:05:00Z" level=error msg="error syncing \'fleet-default/custom-2d74d4c9a104-machine-plan\': handler secret-watch: secret received was too old, requeuing"',
      ],
    },
  }),

  // rke2#1916: a second host with the same name.
  nodePasswordRejected: base({
    services: {
      'rancher-system-agent': {
        ActiveState: 'active', SubState: 'running', StateChangeTimestamp: 'Thu 2026-01-15 06:00:00 UTC'
      },
      'rke2-agent':           {
        ActiveState: 'activating', SubState: 'auto-restart', NRestarts: 40, StateChangeTimestamp: 'Thu 2026-01-15 08:02:00 UTC'
      },
    },
    journal: {
      'rancher-system-agent': [...AGENT_START],
      'rke2-agent':           [
        '2026-01-15T08:01:00+0000 dev-k8s-node01 rke2[900]: time="2026-01-15T08:01:00Z" level=info msg="Waiting to retrieve agent configuration; server is not ready: Node password rejected, duplicate hostname or contents of \'/etc/rancher/node/password\' may not match server node-passwd entry, try enabling a unique node name with the --with-node-id flag"',
        '2026-01-15T08:02:00+0000 dev-k8s-node01 rke2[900]: time="2026-01-15T08:02:00Z" level=info msg="Waiting to retrieve agent configuration; server is not ready: Node password rejected, duplicate hostname or contents of \'/etc/rancher/node/password\' may not match server node-passwd entry, try enabling a unique node name with the --with-node-id flag"',
      ],
    },
  }),

  // A command of the plan fails (a certificate rotation), then the init node's periodic etcd probe fails every cycle:
  // the journal as system-agent's applyinator writes it (pkg/applyinator/applyinator.go).
  planInstructionFailed: base({
    journal: {
      'rancher-system-agent': [
        ...AGENT_START,
        '2026-01-15T16:44:58+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:44:58+08:00" level=info msg="[Applyinator] Applying one-time instructions for plan with checksum 4f2a"',
        '2026-01-15T16:44:59+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:44:59+08:00" level=info msg="[Applyinator] Command sh [-c rke2 certificate rotate] finished with err: exit status 1 and exit code: 1"',
        '2026-01-15T16:44:59+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:44:59+08:00" level=error msg="error executing instruction 0: exit status 1"',
        '2026-01-15T16:45:30+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:45:30+08:00" level=info msg="[Applyinator] Command sh [-c curl -f --retry 100 --retry-delay 5 --cacert /var/lib/rancher/rke2/server/tls/server-ca.crt https://localhost:9345/db/info | grep \'clientURLs\'] finished with err: exit status 1 and exit code: 1"',
        '2026-01-15T16:49:59+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:49:59+08:00" level=info msg="[Applyinator] Applying one-time instructions for plan with checksum 4f2a"',
        '2026-01-15T16:50:00+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:50:00+08:00" level=error msg="error executing instruction 0: exit status 1"',
      ],
    },
  }),

  // rancher#41125: a server more than a year old; only kube-controller-manager and kube-scheduler fail.
  expiredCertificates: base({
    certificates: {
      'var/lib/rancher/rke2/server/tls/kube-controller-manager/kube-controller-manager.crt': 'Jan  2 03:12:44 2026 GMT',
      'var/lib/rancher/rke2/server/tls/kube-scheduler/kube-scheduler.crt':                   'Jan  2 03:12:44 2026 GMT',
      'var/lib/rancher/rke2/agent/serving-kubelet.crt':                                      'Nov 20 03:12:45 2027 GMT',
    },
  }),

  // A minimal host: no journalctl and no openssl.
  toolMissing: base({ without: ['journalctl', 'openssl'] }),
};
