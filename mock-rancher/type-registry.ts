/**
 * Which Kubernetes types each API scope serves (Rancher's local cluster, each downstream cluster),
 * their Steve ids, resource names and scope: the facts the schemas, the URL router and the store share.
 */
import type { KubeObject } from '../scenarios/types';
import { steveType } from '../scenarios/steve';

export interface TypeInfo {
  /** Steve schema id, e.g. `cluster.x-k8s.io.machine`, `secret` */
  id: string;
  group: string;
  version: string;
  kind: string;
  /** Kubernetes resource (plural), e.g. `machines` */
  resource: string;
  namespaced: boolean;
}

export function groupVersionOf(apiVersion: string): { group: string, version: string } {
  const slash = apiVersion.indexOf('/');

  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function pluralOf(kind: string): string {
  const lower = kind.toLowerCase();

  if (/[^aeiou]y$/.test(lower)) {
    return `${ lower.slice(0, -1) }ies`;
  }
  if (/(s|x|ch|sh)$/.test(lower)) {
    return `${ lower }es`;
  }

  return `${ lower }s`;
}

export function typeInfoOf(obj: Pick<KubeObject, 'apiVersion' | 'kind'>, namespaced: boolean): TypeInfo {
  const { group, version } = groupVersionOf(obj.apiVersion);

  return {
    id: steveType(obj), group, version, kind: obj.kind, resource: pluralOf(obj.kind), namespaced
  };
}

function t(apiVersion: string, kind: string, namespaced: boolean): TypeInfo {
  return typeInfoOf({ apiVersion, kind }, namespaced);
}

/** Types Rancher's local cluster always has, whether or not a scenario fills them. */
export const LOCAL_TYPES: readonly TypeInfo[] = [
  t('v1', 'Namespace', false),
  t('v1', 'Secret', true),
  t('v1', 'ConfigMap', true),
  t('v1', 'Node', false),
  t('v1', 'Event', true),
  t('batch/v1', 'Job', true),
  t('management.cattle.io/v3', 'Setting', false),
  t('management.cattle.io/v3', 'Feature', false),
  t('management.cattle.io/v3', 'Cluster', false),
  t('management.cattle.io/v3', 'Node', true),
  t('management.cattle.io/v3', 'NodePool', true),
  t('management.cattle.io/v3', 'NodeTemplate', true),
  t('management.cattle.io/v3', 'Project', true),
  t('management.cattle.io/v3', 'FleetWorkspace', false),
  t('management.cattle.io/v3', 'ClusterRegistrationToken', true),
  t('management.cattle.io/v3', 'User', false),
  t('management.cattle.io/v3', 'GlobalRole', false),
  t('management.cattle.io/v3', 'RoleTemplate', false),
  t('management.cattle.io/v3', 'ClusterRoleTemplateBinding', true),
  t('management.cattle.io/v3', 'ProjectRoleTemplateBinding', true),
  t('management.cattle.io/v3', 'KontainerDriver', false),
  t('management.cattle.io/v3', 'NodeDriver', false),
  t('management.cattle.io/v3', 'RkeTemplate', true),
  t('management.cattle.io/v3', 'RkeTemplateRevision', true),
  t('provisioning.cattle.io/v1', 'Cluster', true),
  t('cluster.x-k8s.io/v1beta1', 'Cluster', true),
  t('cluster.x-k8s.io/v1beta1', 'Machine', true),
  t('cluster.x-k8s.io/v1beta1', 'MachineSet', true),
  t('cluster.x-k8s.io/v1beta1', 'MachineDeployment', true),
  t('cluster.x-k8s.io/v1beta1', 'MachineHealthCheck', true),
  t('rke.cattle.io/v1', 'RKEBootstrap', true),
  t('rke.cattle.io/v1', 'RKEControlPlane', true),
  t('rke.cattle.io/v1', 'ETCDSnapshot', true),
  t('rke.cattle.io/v1', 'CustomMachine', true),
  t('catalog.cattle.io/v1', 'App', true),
  t('catalog.cattle.io/v1', 'ClusterRepo', false),
  t('catalog.cattle.io/v1', 'UIPlugin', true),
  t('fleet.cattle.io/v1alpha1', 'GitRepo', true),
];

/** Types every downstream cluster serves through /k8s/clusters/<id>/v1. */
export const DOWNSTREAM_TYPES: readonly TypeInfo[] = [
  t('v1', 'Namespace', false),
  t('v1', 'Node', false),
  t('v1', 'Pod', true),
  t('v1', 'Secret', true),
  t('v1', 'ConfigMap', true),
  t('v1', 'Event', true),
  t('coordination.k8s.io/v1', 'Lease', true),
  t('management.cattle.io/v3', 'Project', true),
];

export class TypeRegistry {
  private readonly byId = new Map<string, TypeInfo>();
  private readonly byPlural = new Map<string, TypeInfo>();
  private readonly byResource = new Map<string, TypeInfo>();

  constructor(initial: readonly TypeInfo[]) {
    initial.forEach((info) => this.add(info));
  }

  add(info: TypeInfo): TypeInfo {
    const existing = this.byId.get(info.id);

    if (existing) {
      return existing;
    }
    this.byId.set(info.id, info);
    this.byPlural.set(`${ info.id }s`, info);
    this.byResource.set(`${ info.group }/${ info.resource }`, info);

    return info;
  }

  /** Registers an object's type on first sight (scenario and bundle data bring their own types). */
  addObject(obj: KubeObject): TypeInfo {
    const id = steveType(obj);

    return this.byId.get(id) || this.add(typeInfoOf(obj, !!obj.metadata.namespace));
  }

  /** A type as Steve URLs name it: the schema id or its plural. */
  fromSteveName(name: string): TypeInfo | undefined {
    return this.byId.get(name) || this.byPlural.get(name);
  }

  fromResource(group: string, resource: string): TypeInfo | undefined {
    return this.byResource.get(`${ group }/${ resource }`);
  }

  get(id: string): TypeInfo | undefined {
    return this.byId.get(id);
  }

  all(): TypeInfo[] {
    return [...this.byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}
