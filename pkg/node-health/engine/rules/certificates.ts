/**
 * kube-controller-manager and kube-scheduler serve their health endpoints with self-signed certificates they
 * generate at first start, valid for one year. Rancher probes those endpoints; once the certificates expire
 * only these two probes fail ("waiting for probes: kube-controller-manager, kube-scheduler", rancher#41125),
 * and Rotate Certificates deletes them so the components make new ones (rancher#41398).
 */
import type { NodeRecord } from '../types';
import {
  asNumber, asObject, asString, metadata, specOf
} from '../fields';
import { planEvidence } from './plan';
import { crictl, distributionOf } from './host-commands';
import type { Distribution } from './host-commands';
import {
  Rule, age, duration, evidence, objectLabel, sh, step
} from './rule';

export const SELF_SIGNED_PROBES = ['kube-controller-manager', 'kube-scheduler'];

/** The distribution's data directory, for the certificate paths: rke2 unless the host runs k3s. */
function distro(r: NodeRecord): Distribution {
  return distributionOf(r) ?? 'rke2';
}

/** When the node was first started, as far as the objects tell: its Node's creation, else its machine's. */
function bornAt(r: NodeRecord): { at: string | null; object: string } {
  if (r.objects.node) {
    return { at: asString(metadata(r.objects.node).creationTimestamp), object: objectLabel('node', r.objects.node) };
  }

  return { at: r.created, object: r.objects.machine ? objectLabel('machine', r.objects.machine) : '?' };
}

export const servingCertsExpired: Rule = {
  id:       'serving-certs-expired',
  severity: 'error',
  explains: ['probes-failing', 'blocking-cluster-operation'],
  needs:    [],
  check(r, ctx) {
    const probes = r.plan.unhealthyProbes;

    if (!r.objects.machine || r.deleting || probes.length === 0 || !probes.every((p) => SELF_SIGNED_PROBES.includes(p))) {
      return null;
    }
    const born = bornAt(r);
    const nodeAge = age(ctx, born.at);

    if (nodeAge === null || nodeAge < ctx.config.servingCertLifetimeMs) {
      return null;
    }
    const data = distro(r);
    const cluster = r.cluster;

    return {
      args:     { probes: probes.join(', '), age: duration(nodeAge) },
      evidence: [
        ...planEvidence(r),
        evidence(born.object, 'metadata.creationTimestamp', born.at),
      ],
      fix: [
        step(this.id, 'rotate', { cluster: cluster?.name ?? '?' }, cluster?.namespace ? rotateCommand(cluster.namespace, cluster.name, rotationGeneration(r) + 1) : undefined),
        step(this.id, 'checkExpiry', {}, `sudo openssl x509 -enddate -noout -in /var/lib/rancher/${ data }/server/tls/kube-scheduler/kube-scheduler.crt`),
        step(this.id, 'byHand', {}, `sudo rm -f /var/lib/rancher/${ data }/server/tls/kube-controller-manager/kube-controller-manager.{crt,key} /var/lib/rancher/${ data }/server/tls/kube-scheduler/kube-scheduler.{crt,key}`),
        step(this.id, 'restartComponents', {}, data === 'rke2' ? crictl('rke2', `rm -f $(${ crictl('rke2', 'ps -q --name "kube-controller-manager|kube-scheduler"') })`) : 'sudo systemctl restart k3s'),
      ],
      since:   r.plan.since,
      actions: [],
    };
  },
};

function rotationGeneration(r: NodeRecord): number {
  const spec = r.objects.cluster ? specOf(r.objects.cluster) : {};

  return asNumber(asObject(asObject(spec.rkeConfig).rotateCertificates).generation) ?? 0;
}

/** The command that asks Rancher to rotate the cluster's certificates: a generation above the current one. */
function rotateCommand(namespace: string, name: string, generation: number): string {
  return `kubectl -n ${ sh(namespace) } patch clusters.provisioning.cattle.io ${ sh(name) } --type=merge -p '{"spec":{"rkeConfig":{"rotateCertificates":{"generation":${ generation }}}}}'`;
}
