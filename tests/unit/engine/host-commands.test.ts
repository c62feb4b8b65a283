/**
 * Commands run on a host follow its distribution: RKE2's crictl is off root's PATH, K3s has crictl as a subcommand
 * and runs kube-apiserver and etcd inside its own process, and an imported cluster gets the usual forms.
 */
import { diagnose } from '@pkg/node-health/engine';
import {
  apiserverCheck, crictl, distributionOfVersion, etcdEndpointHealth, etcdMemberList, kubeletLogSearch, kubernetesServices, serviceJournal
} from '@pkg/node-health/engine/rules/host-commands';
import type { NodeRecord } from '@pkg/node-health/engine';
import { buildScenario } from '../../../scenarios/catalog';
import { clusterObjects } from './helpers';

function apiserverStep(version: string | null, kubelet?: string, step = 'apiserver'): string | undefined {
  const scenario = buildScenario('control-plane-down');
  const id = scenario.clusters[0].mgmtId;
  const objects = JSON.parse(JSON.stringify(clusterObjects(scenario, id))) as any[];

  for (const o of objects) {
    if (o.kind === 'Cluster' && o.apiVersion?.startsWith('provisioning.cattle.io')) {
      if (version) {
        o.spec.kubernetesVersion = version;
      } else {
        delete o.spec.kubernetesVersion;
      }
    }
    if (kubelet && o.kind === 'Node' && o.apiVersion === 'v1') {
      o.status.nodeInfo = { ...o.status.nodeInfo, kubeletVersion: kubelet };
    }
    if (kubelet && o.kind === 'Node' && o.apiVersion === 'management.cattle.io/v3' && o.status?.internalNodeStatus?.nodeInfo) {
      o.status.internalNodeStatus.nodeInfo.kubeletVersion = kubelet;
    }
  }
  const report = diagnose(objects, { now: scenario.now, defaultCluster: id });
  const finding = report.clusters.flatMap((c) => c.findings).find((f) => f.rule === 'control-plane-unavailable');

  return finding?.fix.find((s) => s.key.endsWith(`.${ step }`))?.command;
}

describe('the Kubernetes service a host runs', () => {
  const records = (name: string) => {
    const scenario = buildScenario(name);
    const id = scenario.clusters[0].mgmtId;

    return diagnose(clusterObjects(scenario, id), { now: scenario.now, defaultCluster: id }).records;
  };
  const of = (rs: NodeRecord[], test: (r: NodeRecord) => boolean) => kubernetesServices(rs.find((r) => test(r) && r.roles.length > 0)!);

  it('is the server on an etcd or control-plane host and the agent on a worker, by the cluster\'s distribution', () => {
    const k3s = records('ghost-etcd');
    const rke2 = records('etcd-quorum');

    expect(of(k3s, (r) => r.roles.includes('etcd'))).toStrictEqual(['k3s']);
    expect(of(k3s, (r) => r.roles.every((role) => role === 'worker'))).toStrictEqual(['k3s-agent']);
    expect(of(rke2, (r) => r.roles.includes('etcd'))).toStrictEqual(['rke2-server']);
  });

  it('is each it may be where the distribution or the roles are not known', () => {
    const r = records('etcd-quorum').find((x) => x.roles.includes('etcd'))!;
    const unknown = {
      ...r,
      roles:   [],
      objects: {
        ...r.objects, cluster: undefined, node: undefined, mgmtNode: undefined
      }
    } as NodeRecord;

    expect(kubernetesServices({ ...r, roles: [] })).toStrictEqual(['rke2-server', 'rke2-agent']);
    expect(kubernetesServices(unknown)).toStrictEqual(['rke2-server', 'rke2-agent', 'k3s', 'k3s-agent']);
    expect(serviceJournal(['k3s', 'k3s-agent'], '--no-pager')).toBe('sudo journalctl -u k3s -u k3s-agent --no-pager');
  });

  it('is the journal a K3s host\'s kubelet log is searched in, and the log a down control plane\'s servers are read in', () => {
    const worker = records('ghost-etcd').find((r) => r.roles.length > 0 && r.roles.every((role) => role === 'worker'))!;

    expect(kubeletLogSearch(worker, 'CSINode')).toBe("sudo journalctl -u k3s-agent --since -1h --no-pager | grep -E 'CSINode' | tail -n 20");
    expect(kubeletLogSearch(records('etcd-quorum').find((r) => r.roles.includes('etcd'))!, 'CSINode')).toBe("sudo grep -E 'CSINode' /var/lib/rancher/rke2/agent/logs/kubelet.log | tail -n 20");
    expect(apiserverStep('v1.30.6+k3s1', undefined, 'serverLog')).toBe('sudo journalctl -u k3s --since -1h --no-pager | tail -n 100');
    expect(apiserverStep('v1.31.5+rke2r1', undefined, 'serverLog')).toBe('sudo journalctl -u rke2-server --since -1h --no-pager | tail -n 100');
    expect(apiserverStep(null, 'v1.29.3-eks-adc7111', 'serverLog')).toBe('sudo journalctl -u rke2-server -u k3s --since -1h --no-pager | tail -n 100');
  });
});

describe('host commands', () => {
  it('tell RKE2 and K3s by the version suffix Rancher and the kubelet write', () => {
    expect(distributionOfVersion('v1.31.5+rke2r1')).toBe('rke2');
    expect(distributionOfVersion('v1.30.6+k3s1')).toBe('k3s');
    expect(distributionOfVersion('v1.29.3-eks-adc7111')).toBeNull();
    expect(distributionOfVersion(null)).toBeNull();
  });

  it('run RKE2\'s own crictl, K3s\'s subcommand, and plain crictl elsewhere', () => {
    expect(crictl('rke2', 'ps -a')).toBe('sudo /var/lib/rancher/rke2/bin/crictl --runtime-endpoint unix:///run/k3s/containerd/containerd.sock ps -a');
    expect(crictl('k3s', 'ps -a')).toBe('sudo k3s crictl ps -a');
    expect(crictl(null, 'ps -a')).toBe('sudo crictl ps -a');
  });

  it('list etcd members through RKE2\'s etcd container, and with K3s\'s client certificate', () => {
    expect(etcdMemberList('rke2')).toBe('sudo /var/lib/rancher/rke2/bin/crictl --runtime-endpoint unix:///run/k3s/containerd/containerd.sock exec ' +
      '$(sudo /var/lib/rancher/rke2/bin/crictl --runtime-endpoint unix:///run/k3s/containerd/containerd.sock ps --label io.kubernetes.container.name=etcd -q) ' +
      'etcdctl --cacert /var/lib/rancher/rke2/server/tls/etcd/server-ca.crt --cert /var/lib/rancher/rke2/server/tls/etcd/server-client.crt ' +
      '--key /var/lib/rancher/rke2/server/tls/etcd/server-client.key member list');
    expect(etcdMemberList('k3s')).toContain('--cert /var/lib/rancher/k3s/server/tls/etcd/client.crt');
    expect(etcdMemberList('k3s')).not.toContain('crictl');
    // Whether the members answer is etcd's endpoint health over every member, not its member list.
    expect(etcdEndpointHealth('rke2')).toBe(etcdMemberList('rke2').replace(/member list$/, 'endpoint health --cluster'));
    expect(etcdEndpointHealth('k3s')).toMatch(/^sudo etcdctl --endpoints https:\/\/127\.0\.0\.1:2379 .* endpoint health --cluster$/);
  });

  it('check K3s\'s API server through its readiness endpoint, since it is no container', () => {
    expect(apiserverCheck('k3s')).toBe('sudo k3s kubectl get --raw=\'/readyz?verbose\'');
    expect(apiserverCheck('rke2')).toContain('/var/lib/rancher/rke2/bin/crictl');
  });

  it('give the down control plane of an RKE2 cluster RKE2\'s crictl, and of a K3s one its readiness check', () => {
    expect(apiserverStep('v1.31.5+rke2r1')).toBe(apiserverCheck('rke2'));
    expect(apiserverStep('v1.30.6+k3s1')).toBe(apiserverCheck('k3s'));
  });

  it('read the distribution from the kubelet when the cluster does not say, and fall back to plain crictl', () => {
    expect(apiserverStep(null, 'v1.30.6+k3s1')).toBe(apiserverCheck('k3s'));
    expect(apiserverStep(null, 'v1.29.3-eks-adc7111')).toBe('sudo crictl ps -a --name kube-apiserver');
  });
});
