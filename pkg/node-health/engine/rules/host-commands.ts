/**
 * Commands an admin runs on a node's host, as its distribution has them. RKE2 ships crictl and kubectl under
 * /var/lib/rancher/rke2/bin, off root's PATH, and runs kube-apiserver and etcd as containers; K3s has crictl and
 * kubectl as subcommands of its one binary and runs kube-apiserver and etcd inside its own process, so there is no
 * container of either to list. Any other distribution (an imported cluster) gets the commands in their usual form.
 */
import type { KubeObject, NodeRecord } from '../types';
import { asObject, asString, specOf, statusOf } from '../fields';

export type Distribution = 'rke2' | 'k3s';

/** RKE2 and K3s tell themselves in their Kubernetes version: v1.30.4+rke2r1, v1.30.4+k3s1. */
export function distributionOfVersion(version: string | null | undefined): Distribution | null {
  if (!version) {
    return null;
  }

  return /\+rke2/.test(version) ? 'rke2' : (/\+k3s/.test(version) ? 'k3s' : null);
}

function kubeletVersion(node: KubeObject | undefined, inStatus: 'nodeInfo' | 'internalNodeStatus'): string | null {
  if (!node) {
    return null;
  }
  const status = statusOf(node);
  const info = inStatus === 'nodeInfo' ? status.nodeInfo : asObject(status.internalNodeStatus).nodeInfo;

  return asString(asObject(info).kubeletVersion);
}

/** The distribution a record's host runs: its cluster's Kubernetes version, else what its kubelet reports. */
export function distributionOf(r: NodeRecord): Distribution | null {
  return distributionOfVersion(r.objects.cluster ? asString(specOf(r.objects.cluster).kubernetesVersion) : null) ??
    distributionOfVersion(kubeletVersion(r.objects.node, 'nodeInfo')) ??
    distributionOfVersion(kubeletVersion(r.objects.mgmtNode, 'internalNodeStatus'));
}

/** The distribution of several hosts of one cluster: the first that tells. */
export function distributionOfAny(records: readonly NodeRecord[]): Distribution | null {
  for (const r of records) {
    const d = distributionOf(r);

    if (d) {
      return d;
    }
  }

  return null;
}

const RKE2_CRICTL = 'sudo /var/lib/rancher/rke2/bin/crictl --runtime-endpoint unix:///run/k3s/containerd/containerd.sock';

/** crictl with `args`, as the distribution ships it. */
export function crictl(d: Distribution | null, args: string): string {
  if (d === 'rke2') {
    return `${ RKE2_CRICTL } ${ args }`;
  }

  return d === 'k3s' ? `sudo k3s crictl ${ args }` : `sudo crictl ${ args }`;
}

/**
 * The kubelet's last log lines matching `pattern` (an extended regular expression of the engine's own), where the
 * record's host writes that log: RKE2 to a file of its own (on Windows too), K3s into the journal of the service the
 * host runs (kubernetesServices).
 */
export function kubeletLogSearch(r: NodeRecord, pattern: string): string {
  const d = distributionOf(r);

  if (r.os === 'windows') {
    return `Select-String -Path C:\\var\\lib\\rancher\\rke2\\agent\\logs\\kubelet.log -Pattern '${ pattern }' | Select-Object -Last 20`;
  }
  if (d === 'rke2') {
    return `sudo grep -E '${ pattern }' /var/lib/rancher/rke2/agent/logs/kubelet.log | tail -n 20`;
  }

  return serviceJournal(d === 'k3s' ? kubernetesServices(r) : ['kubelet'], `--since -1h --no-pager | grep -E '${ pattern }' | tail -n 20`);
}

const SERVICES: Record<Distribution, { server: string; agent: string }> = {
  rke2: { server: 'rke2-server', agent: 'rke2-agent' },
  k3s:  { server: 'k3s', agent: 'k3s-agent' },
};

/**
 * The Kubernetes service a record's Linux host runs, as its distribution and roles name it: an etcd or
 * control-plane host runs the server (rke2-server, k3s), a worker the agent (rke2-agent, k3s-agent). Where the
 * distribution or the roles are not known, each service it may be.
 */
export function kubernetesServices(r: NodeRecord): string[] {
  const kinds: ('server' | 'agent')[] = r.roles.length === 0 ? ['server', 'agent'] : (r.roles.some((role) => role !== 'worker') ? ['server'] : ['agent']);

  return servicesOf(distributionOf(r), kinds);
}

/** The services of these kinds, of the distribution where it is known, else of both. */
export function servicesOf(d: Distribution | null, kinds: readonly ('server' | 'agent')[]): string[] {
  return (d ? [d] : (['rke2', 'k3s'] as const)).flatMap((x) => kinds.map((k) => SERVICES[x][k]));
}

/** The host's Kubernetes service as the steps name it: the one it runs, or each it may run ("rke2-server / k3s"); rke2 on Windows. */
export function servicesSaid(r: NodeRecord): string {
  return r.os === 'windows' ? 'rke2' : kubernetesServices(r).join(' / ');
}

/** The rke2 service's last events on a Windows host, where it logs. */
export const RKE2_WINDOWS_EVENTS = 'Get-WinEvent -ProviderName rke2 -MaxEvents 50 | Format-List';

/** Whether the host's Kubernetes service, which runs its kubelet, is running: systemctl status, or the Windows service and its events. */
export function serviceStatus(r: NodeRecord): string {
  return r.os === 'windows' ? `Get-Service rke2; ${ RKE2_WINDOWS_EVENTS }` : `sudo systemctl status ${ kubernetesServices(r).join(' ') } --no-pager`;
}

/** The journal of these services, each unit once: `sudo journalctl -u … <args>`. */
export function serviceJournal(units: string[], args: string): string {
  return `sudo journalctl ${ units.map((u) => `-u ${ u }`).join(' ') } ${ args }`;
}

/** The services Rancher installs on a Linux host: its system agent, then RKE2's and K3s's, server and agent. */
const HOST_SERVICES = ['rancher-system-agent', 'rke2-server', 'rke2-agent', 'k3s', 'k3s-agent'];

/**
 * Stops the host's agent and Kubernetes services and keeps them from starting again. systemctl disables none of
 * the units it is given when one of them has no unit file (systemd/systemd#9581), and a host has only some of these
 * (K3s installs k3s or k3s-agent, never RKE2's): the units named are those of the list the host has.
 */
export const STOP_HOST_SERVICES = `sudo systemctl disable --now $(systemctl list-unit-files --no-legend ${ HOST_SERVICES.map((s) => `${ s }.service`).join(' ') } | awk '{print $1}')`;

/**
 * The same on a Windows host, whose agent (rancher-wins) and RKE2 are Windows services: stopped, then set to stay
 * stopped at the next start of the host.
 */
export const STOP_HOST_SERVICES_WINDOWS = 'Stop-Service rancher-wins, rke2 -Force; Set-Service rancher-wins -StartupType Disabled; Set-Service rke2 -StartupType Disabled';

/** The cluster's Nodes with their Ready status and when their kubelet last wrote it: `kubectl <this>`. */
export const NODE_HEARTBEATS = 'get nodes -o \'custom-columns=NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status,' +
  'HEARTBEAT:.status.conditions[?(@.type=="Ready")].lastHeartbeatTime\'';

/** kubectl on a server node, against the cluster's own API server rather than through Rancher. */
export function serverKubectl(d: Distribution | null, args: string): string {
  if (d === 'k3s') {
    return `sudo k3s kubectl ${ args }`;
  }

  return d === 'rke2' ? `sudo /var/lib/rancher/rke2/bin/kubectl --kubeconfig /etc/rancher/rke2/rke2.yaml ${ args }` : `kubectl ${ args }`;
}

/**
 * Whether kube-apiserver runs on this host: RKE2's container (running, or restarting and why), K3s's own readiness
 * endpoint, since its API server is part of the k3s process.
 */
export function apiserverCheck(d: Distribution | null): string {
  return d === 'k3s' ? 'sudo k3s kubectl get --raw=\'/readyz?verbose\'' : crictl(d, 'ps -a --name kube-apiserver');
}

/**
 * etcdctl on an etcd host, with the client certificate etcd asks for. RKE2 runs etcdctl in its etcd container; K3s
 * embeds etcd and ships no etcdctl, so the command needs one installed on the host, with K3s's client certificate.
 */
function etcdctl(d: Distribution | null, args: string): string {
  if (d === 'k3s') {
    return 'sudo etcdctl --endpoints https://127.0.0.1:2379 --cacert /var/lib/rancher/k3s/server/tls/etcd/server-ca.crt ' +
      `--cert /var/lib/rancher/k3s/server/tls/etcd/client.crt --key /var/lib/rancher/k3s/server/tls/etcd/client.key ${ args }`;
  }
  const tls = '/var/lib/rancher/rke2/server/tls/etcd';

  return `${ crictl('rke2', `exec $(${ crictl('rke2', 'ps --label io.kubernetes.container.name=etcd -q') }) etcdctl`) } ` +
    `--cacert ${ tls }/server-ca.crt --cert ${ tls }/server-client.crt --key ${ tls }/server-client.key ${ args }`;
}

/** The etcd members as etcd itself lists them: whether a member is still listed, not whether it answers. */
export function etcdMemberList(d: Distribution | null): string {
  return etcdctl(d, 'member list');
}

/**
 * Whether each etcd member answers, as etcd itself tells: every listed member's endpoint, each "is healthy" only
 * when a read through it succeeds, which needs the majority. A member list answers without one.
 */
export function etcdEndpointHealth(d: Distribution | null): string {
  return etcdctl(d, 'endpoint health --cluster');
}
