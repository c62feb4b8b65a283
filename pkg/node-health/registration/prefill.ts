/**
 * Options for re-registering an existing node, read from what Rancher recorded when the node first
 * registered: role labels on the CAPI Machine, the node name label (set only when --node-name was given),
 * the address annotations and the labels / taints annotations on the Machine or its machine-plan Secret
 * (rancher pkg/controllers/capr/unmanaged). Works on kubectl and Steve objects; missing fields are skipped.
 */
import {
  ANNOTATIONS, LABELS, annotationsOf, asObject, labelsOf, metadata, nodeRefName
} from '../engine';
import type { Role } from '../engine';
import type { RegistrationOptions, TargetOs } from './types';

/** Label keys Rancher and Cluster API manage themselves; registering with them again would be wrong. */
const MANAGED_LABEL = /^(cattle\.io\/os$|([a-z0-9.-]+\.)?cattle\.io\/|cluster\.x-k8s\.io\/|node-role\.kubernetes\.io\/)/;

export interface PrefillInput {
  /** CAPI Machine (kubectl or Steve) */
  machine?: unknown;
  /** Its `<machine>-machine-plan` Secret; only metadata is read */
  planSecret?: unknown;
  /** The downstream Node, for its name when Rancher did not record one */
  node?: unknown;
  nodeName?: string | null;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function firstAnnotation(key: string, ...objects: unknown[]): string {
  for (const obj of objects) {
    const value = str(annotationsOf(obj)[key]).trim();

    if (value) {
      return value;
    }
  }

  return '';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function labelsFromAnnotation(text: string): string[] {
  const map = asObject(parseJson(text));

  return Object.keys(map)
    .filter((key) => !MANAGED_LABEL.test(key) && (typeof map[key] === 'string' || typeof map[key] === 'number' || typeof map[key] === 'boolean'))
    .sort()
    .map((key) => `${ key }=${ map[key] }`);
}

function taintsFromAnnotation(text: string): string[] {
  const parsed = parseJson(text);

  return (Array.isArray(parsed) ? parsed : [])
    .map(asObject)
    .filter((t) => str(t.key) && str(t.effect))
    .map((t) => `${ str(t.key) }=${ str(t.value) }:${ str(t.effect) }`);
}

function isTrue(value: unknown): boolean {
  return str(value).toLowerCase() === 'true';
}

/** Registration options matching how the node was registered; the caller still chooses `insecure`. */
export function prefillFromMachine(input: PrefillInput): RegistrationOptions {
  const machine = asObject(input?.machine);
  const labels = labelsOf(machine);
  const secretLabels = labelsOf(input?.planSecret);
  const roleLabel = (key: string) => isTrue(labels[key]) || isTrue(secretLabels[key]);
  const os: TargetOs = str(labels[LABELS.os] || secretLabels[LABELS.os]).toLowerCase() === 'windows' ? 'windows' : 'linux';
  const roles: Role[] = [];

  if (roleLabel(LABELS.etcdRole)) {
    roles.push('etcd');
  }
  if (roleLabel(LABELS.controlPlaneRole)) {
    roles.push('controlplane');
  }
  if (roleLabel(LABELS.workerRole)) {
    roles.push('worker');
  }

  const options: RegistrationOptions = {
    os,
    // Windows nodes can only be workers, whatever the labels say
    roles:    os === 'windows' ? ['worker'] : roles,
    labels:   labelsFromAnnotation(firstAnnotation(ANNOTATIONS.registeredLabels, input?.planSecret, machine)),
    taints:   taintsFromAnnotation(firstAnnotation(ANNOTATIONS.registeredTaints, machine, input?.planSecret)),
    insecure: false,
  };

  const nodeName = str(labels[LABELS.nodeName]) || str(secretLabels[LABELS.nodeName]) ||
    str(input?.nodeName) || str(metadata(input?.node).name) || (nodeRefName(machine) ?? '');

  if (nodeName) {
    options.nodeName = nodeName;
  }
  const address = firstAnnotation(ANNOTATIONS.address, input?.planSecret, machine);
  const internalAddress = firstAnnotation(ANNOTATIONS.internalAddress, input?.planSecret, machine);

  if (address) {
    options.address = address;
  }
  if (internalAddress) {
    options.internalAddress = internalAddress;
  }

  return options;
}
