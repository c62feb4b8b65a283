/**
 * Registration commands and the cluster registration tokens that hold them.
 */

import { stableHex } from '../random';
import { parseTime } from '../time';
import { KubeObject } from '../types';
import { DEFAULT_SECRET_MARKER, DEFAULT_SERVER_URL, meta } from './common';

export interface RegistrationCommands {
  command: string;
  insecureCommand: string;
  nodeCommand: string;
  insecureNodeCommand: string;
  windowsNodeCommand: string;
  insecureWindowsNodeCommand: string;
  manifestUrl: string;
  token: string;
}

export function registrationCommands(o: { serverUrl: string; mgmtId: string; token: string; caChecksum?: string }): RegistrationCommands {
  const manifestUrl = `${ o.serverUrl }/v3/import/${ o.token }_${ o.mgmtId }.yaml`;
  const ca = o.caChecksum ? ` --ca-checksum ${ o.caChecksum }` : '';
  const caWin = o.caChecksum ? ` -CaChecksum ${ o.caChecksum }` : '';

  return {
    command:                    `kubectl apply -f ${ manifestUrl }`,
    insecureCommand:            `curl --insecure -sfL ${ manifestUrl } | kubectl apply -f -`,
    nodeCommand:                `curl -fL ${ o.serverUrl }/system-agent-install.sh | sudo  sh -s - --server ${ o.serverUrl } --label 'cattle.io/os=linux' --token ${ o.token }${ ca }`,
    insecureNodeCommand:        `curl --insecure -fL ${ o.serverUrl }/system-agent-install.sh | sudo  sh -s - --server ${ o.serverUrl } --label 'cattle.io/os=linux' --token ${ o.token }`,
    windowsNodeCommand:         `curl.exe -fL ${ o.serverUrl }/wins-agent-install.ps1 -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server ${ o.serverUrl } -Label 'cattle.io/os=windows' -Token ${ o.token } -Worker${ caWin }`,
    insecureWindowsNodeCommand: `curl.exe --insecure -fL ${ o.serverUrl }/wins-agent-install.ps1 -o install.ps1; Set-ExecutionPolicy Bypass -Scope Process -Force; ./install.ps1 -Server ${ o.serverUrl } -Label 'cattle.io/os=windows' -Token ${ o.token } -Worker`,
    manifestUrl,
    token:                      o.token,
  };
}

/** A registration token value: 54 lower-case characters, beginning with the marker so leaks are detectable. */
export function registrationTokenValue(mgmtId: string, secretMarker = DEFAULT_SECRET_MARKER): string {
  const filler = stableHex(`registration-token:${ mgmtId }`, 64);

  return (secretMarker + filler).slice(0, Math.max(54, secretMarker.length + 8));
}

export interface RegistrationTokenOptions {
  mgmtId: string;
  createdAt: string;
  serverUrl?: string;
  secretMarker?: string;
  caChecksum?: string;
  name?: string;
}

/** ClusterRegistrationToken as the Kubernetes API (and Steve) serves it: commands under status. */
export function clusterRegistrationToken(o: RegistrationTokenOptions): KubeObject {
  const token = registrationTokenValue(o.mgmtId, o.secretMarker);
  const commands = registrationCommands({
    serverUrl: o.serverUrl ?? DEFAULT_SERVER_URL, mgmtId: o.mgmtId, token, caChecksum: o.caChecksum
  });

  return {
    apiVersion: 'management.cattle.io/v3',
    kind:       'ClusterRegistrationToken',
    metadata:   meta('ClusterRegistrationToken', {
      name:       o.name ?? 'default-token',
      namespace:  o.mgmtId,
      createdAt:  o.createdAt,
      generation: 1,
    }),
    spec:   { clusterName: o.mgmtId },
    status: { ...commands },
  };
}

/** The same token as Norman's /v3/clusterregistrationtokens returns it: flat, with an id and type. */
export function normanRegistrationToken(k8sToken: KubeObject, serverUrl = DEFAULT_SERVER_URL): Record<string, unknown> {
  const ns = k8sToken.metadata.namespace ?? '';
  const status = (k8sToken.status ?? {}) as Partial<RegistrationCommands>;
  const id = `${ ns }:${ k8sToken.metadata.name }`;

  return {
    id,
    type:                 'clusterRegistrationToken',
    baseType:             'clusterRegistrationToken',
    name:                 k8sToken.metadata.name,
    namespaceId:          null,
    clusterId:            ns,
    uuid:                 k8sToken.metadata.uid,
    created:              k8sToken.metadata.creationTimestamp,
    createdTS:            parseTime(k8sToken.metadata.creationTimestamp),
    creatorId:            null,
    state:                'active',
    transitioning:        'no',
    transitioningMessage: '',
    annotations:          {},
    labels:               { 'cattle.io/creator': 'norman' },
    links:                {
      self:   `${ serverUrl }/v3/clusterRegistrationTokens/${ id }`,
      update: `${ serverUrl }/v3/clusterRegistrationTokens/${ id }`,
      remove: `${ serverUrl }/v3/clusterRegistrationTokens/${ id }`,
    },
    actions:                    {},
    command:                    status.command,
    insecureCommand:            status.insecureCommand,
    nodeCommand:                status.nodeCommand,
    insecureNodeCommand:        status.insecureNodeCommand,
    windowsNodeCommand:         status.windowsNodeCommand,
    insecureWindowsNodeCommand: status.insecureWindowsNodeCommand,
    manifestUrl:                status.manifestUrl,
    token:                      status.token,
  };
}
