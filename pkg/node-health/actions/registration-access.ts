/**
 * Who is given a cluster's registration token. A token lets whoever holds it join a node to the cluster, control
 * plane and etcd included, so Rancher's own cluster page asks for one only when the user may update the
 * provisioning cluster: the model's getOrCreateToken returns before its request when the cluster has no
 * `links.update` (rancher/dashboard#3852, #4005). The registration command decides the same, from the same link,
 * before anything is sent: a user who may not update the cluster gets neither a token request nor a token.
 */
import { canUpdate } from './finalizers';

export type RegistrationAccess =
  | { allowed: true }
  /**
   * noPermission: Steve gave the user no update link on the provisioning cluster; notLoaded: the cluster was not
   * read, so whether they may is not known, and a token is not asked for on a guess.
   */
  | { allowed: false; reason: 'noPermission' | 'notLoaded' };

/** `provisioningCluster`: the provisioning cluster as Steve or the store gave it, with its links. */
export function registrationAccess(provisioningCluster: unknown): RegistrationAccess {
  const obj = provisioningCluster && typeof provisioningCluster === 'object' ? provisioningCluster as Record<string, unknown> : null;

  if (!obj || !obj.links || typeof obj.links !== 'object') {
    return { allowed: false, reason: 'notLoaded' };
  }

  return canUpdate(obj) ? { allowed: true } : { allowed: false, reason: 'noPermission' };
}
