/**
 * Host reports (node-health-host/v1) as the host check prints them on a scenario's hosts, for the tests, the
 * embedded API's documentation and the browser tests. The Linux shape is what host-check/linux.sh prints,
 * the Windows shape what host-check/windows.ps1 prints (tests/unit/host-check checks both against these).
 */
import type { Scenario } from './types';
import { EVERY_FAILURE_EXPECTED } from './catalog';

export type HostReportDoc = Record<string, any>;

function machine(scenario: Scenario, name: string): Record<string, any> {
  const m = scenario.objects.find((o) => o.kind === 'Machine' && o.metadata?.name === name);

  if (!m) {
    throw new Error(`scenario ${ scenario.name } has no machine ${ name }`);
  }

  return m;
}

function connectionInfo(path: string, size: number, machineName: string, m: Record<string, any>): HostReportDoc {
  return {
    path, present: true, size, parses: true, secretName: `${ machineName }-machine-plan`, namespace: m.metadata?.namespace ?? 'fleet-default', server: 'https://rancher.example.com'
  };
}

/** A healthy Linux host's report for one of the scenario's machines; overrides replace top-level fields. */
export function linuxHostReport(scenario: Scenario, machineName: string, overrides: HostReportDoc = {}): HostReportDoc {
  const m = machine(scenario, machineName);
  const hostname = m.metadata?.labels?.['rke.cattle.io/node-name'] ?? m.status?.nodeRef?.name ?? machineName;
  const distro = /k3s/.test(scenario.clusters[0]?.kubernetesVersion ?? '') ? 'k3s' : 'rke2';
  const at = scenario.now;

  return {
    format:         'node-health-host/v1',
    os:             'linux',
    collectedAt:    at,
    root:           true,
    hostname,
    nodeName:       { value: null, source: null },
    machineId:      m.metadata?.labels?.['rke.cattle.io/machine-id'] ?? null,
    distro,
    agent:          {
      name: 'rancher-system-agent', loaded: true, state: 'active', subState: 'running', restarts: 0, since: '2025-12-01T02:00:00Z'
    },
    distroServices: [{
      name: distro === 'k3s' ? 'k3s' : 'rke2-server', loaded: true, state: 'active', subState: 'running', restarts: 0, since: '2025-12-01T02:01:00Z'
    }],
    connectionInfo: connectionInfo('/var/lib/rancher/agent/rancher2_connection_info.json', 2710, machineName, m),
    logs:           { agent: { read: true, lines: 500 }, distro: { read: true, lines: 500 } },
    signatures:     [],
    certificates:   [
      {
        name: 'kubelet', path: `/var/lib/rancher/${ distro }/agent/serving-kubelet.crt`, notAfter: '2027-11-20T03:12:45Z'
      },
    ],
    clock: {
      checked: true, server: 'https://rancher.example.com', serverDate: at, offsetSeconds: 0
    },
    disk: {
      path: '/var/lib/rancher', present: true, freeBytes: 41234567168, totalBytes: 107374182400
    },
    missingTools: [],
    notes:        [],
    ...overrides,
  };
}

/**
 * Seed 000: the host dev-k8s-node01 behind the ghost etcd machine. Its agent's log is the seed's, its agent
 * restarts forever, and its connection info still names the plan secret of custom-f489526f114a, a machine
 * Rancher no longer has ("node01's custom id does not exist in Rancher"); the agent id on the host is the
 * ghost machine's, so the report joins to the ghost by machine id.
 */
export function ghostHostReport(scenario: Scenario, ghostMachine = 'custom-2d74d4c9a104'): HostReportDoc {
  const base = linuxHostReport(scenario, ghostMachine);

  return {
    ...base,
    collectedAt:    '2026-01-15T08:06:00Z',
    hostname:       'dev-k8s-node01',
    distro:         'k3s',
    agent:          {
      name: 'rancher-system-agent', loaded: true, state: 'activating', subState: 'auto-restart', restarts: 1, since: '2026-01-15T08:04:03Z'
    },
    connectionInfo: {
      ...base.connectionInfo, secretName: 'custom-f489526f114a-machine-plan', namespace: 'fleet-default'
    },
    logs:           { agent: { read: true, lines: 23 }, distro: { read: true, lines: 500 } },
    signatures:     [{
      id:     'agent-credentials',
      source: 'agent',
      count:  1,
      first:  '2026-01-15T08:04:03Z',
      last:   '2026-01-15T08:04:03Z',
      sample: '2026-01-15T16:04:03+0800 dev-k8s-node01 rancher-system-agent[6042]: time="2026-01-15T16:04:03+08:00" level=fatal msg="error while connecting to Kubernetes cluster: the server has asked for the client to provide credentials"',
    }],
    certificates: [
      {
        name: 'kubelet', path: '/var/lib/rancher/k3s/agent/serving-kubelet.crt', notAfter: '2026-12-01T03:12:45Z'
      },
    ],
    clock: {
      checked: false, reason: 'offline', server: 'https://rancher.example.com', serverDate: null, offsetSeconds: null
    },
  };
}

/** A Windows worker's report as windows.ps1 prints it: the host calls itself in upper case. */
export function windowsHostReport(scenario: Scenario, machineName: string, hostname: string, overrides: HostReportDoc = {}): HostReportDoc {
  const m = machine(scenario, machineName);

  return {
    format:         'node-health-host/v1',
    os:             'windows',
    collectedAt:    scenario.now,
    root:           true,
    hostname,
    nodeName:       { value: null, source: null },
    machineId:      null,
    distro:         'rke2',
    agent:          {
      name: 'rancher-wins', loaded: true, state: 'running', subState: null, restarts: null, since: '2026-02-03T02:31:10Z'
    },
    distroServices: [{
      name: 'rke2', loaded: true, state: 'running', subState: null, restarts: null, since: '2026-02-03T02:35:40Z'
    }],
    connectionInfo: connectionInfo('C:\\var\\lib\\rancher\\agent\\rancher2_connection_info.json', 2654, machineName, m),
    logs:           { agent: { read: true, lines: 500 }, distro: { read: true, lines: 500 } },
    signatures:     [],
    certificates:   [{
      name: 'kubelet', path: 'C:\\var\\lib\\rancher\\rke2\\agent\\serving-kubelet.crt', notAfter: '2027-02-03T02:35:41Z'
    }],
    clock:        {
      checked: true, reason: null, server: 'https://rancher.example.com', serverDate: scenario.now, offsetSeconds: -2
    },
    disk: {
      path: 'C:\\var\\lib\\rancher', present: true, freeBytes: 21474836480, totalBytes: 64424509440
    },
    missingTools: [],
    notes:        [],
    ...overrides,
  };
}

/** Reports that make the host rules fire on every-failure's machines whose agent has not applied their plan. */
export function everyFailureHostReports(s: Scenario): HostReportDoc[] {
  const machine = (family: string) => Object.keys(EVERY_FAILURE_EXPECTED).find((m) => EVERY_FAILURE_EXPECTED[m] === family) as string;
  const signature = (id: string) => [{
    id, source: 'agent', count: 1, first: s.now, last: s.now, sample: id
  }];
  const stopped = {
    name: 'rancher-system-agent', loaded: true, state: 'failed', subState: 'failed', restarts: 3, since: s.now
  };

  return [
    linuxHostReport(s, machine('agent-never-checked-in'), {
      connectionInfo: {
        present: true, size: 0, parses: false
      }
    }),
    linuxHostReport(s, machine('plan-not-applied'), { signatures: signature('secret-too-old') }),
    linuxHostReport(s, machine('plan-apply-failed'), { signatures: signature('ca-untrusted-fatal'), agent: stopped }),
  ];
}
