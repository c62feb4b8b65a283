/**
 * The credentials rancher-system-agent uses on the host: its ServiceAccount and token Secret.
 */

import { base64Encode } from '../encoding';
import { stableHex, stableSuffix } from '../random';
import { KubeObject, SecretObject } from '../types';
import { DEFAULT_SECRET_MARKER, meta, uidFor } from './common';
import { planSecretName } from './plan-secret';

export interface AgentCredentialOptions {
  machineName: string;
  namespace: string;
  createdAt: string;
  secretMarker?: string;
}

/**
 * The ServiceAccount the agent authenticates as and its token secret: recreating them invalidates
 * the kubeconfig on the host ("the server has asked for the client to provide credentials").
 */
export function agentCredentials(o: AgentCredentialOptions): [KubeObject, SecretObject] {
  const saName = planSecretName(o.machineName);
  const marker = o.secretMarker ?? DEFAULT_SECRET_MARKER;
  const sa: KubeObject = {
    apiVersion: 'v1',
    kind:       'ServiceAccount',
    metadata:   meta('ServiceAccount', {
      name:      saName,
      namespace: o.namespace,
      createdAt: o.createdAt,
      labels:    {
        'rke.cattle.io/machine-name':         o.machineName,
        'rke.cattle.io/service-account-role': 'plan',
        'rke.cattle.io/plan-secret-name':     planSecretName(o.machineName),
      },
      ownerReferences: [{
        apiVersion:         'rke.cattle.io/v1',
        kind:               'RKEBootstrap',
        name:               o.machineName,
        uid:                uidFor('RKEBootstrap', o.namespace, o.machineName),
        controller:         true,
        blockOwnerDeletion: true,
      }],
    }),
  };
  const tokenName = `${ saName }-token-${ stableSuffix(`sa-token:${ o.namespace }/${ saName }`) }`;
  const header = base64Encode(`{"alg":"RS256","kid":"${ stableHex(`kid:${ saName }`, 16) }"}`).replace(/=+$/, '');
  const payload = base64Encode(`{"sub":"system:serviceaccount:${ o.namespace }:${ saName }"}`).replace(/=+$/, '');
  const jwt = `${ header }.${ payload }.${ marker }-${ stableHex(`sig:${ saName }`, 32) }`;
  const token: SecretObject = {
    apiVersion: 'v1',
    kind:       'Secret',
    metadata:   meta('Secret', {
      name:        tokenName,
      namespace:   o.namespace,
      createdAt:   o.createdAt,
      labels:      { 'cattle.io/service-account.name': saName },
      annotations: {
        'kubernetes.io/service-account.name': saName,
        'kubernetes.io/service-account.uid':  sa.metadata.uid,
      },
    }),
    type: 'kubernetes.io/service-account-token',
    data: {
      'ca.crt':  base64Encode(`-----BEGIN CERTIFICATE-----\n${ marker }-CA-${ stableHex(`ca:${ o.namespace }`, 48) }\n-----END CERTIFICATE-----\n`),
      namespace: base64Encode(o.namespace),
      token:     base64Encode(jwt),
    },
  };

  return [sa, token];
}
