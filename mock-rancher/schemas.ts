/**
 * Schemas as Steve (`/v1/schemas`) and Norman (`/v3/schemas`) publish them, filtered by what the
 * asking user may do: a type the user cannot list is absent, as in Rancher.
 */
import type { TypeInfo } from './type-registry';
import type { MockUser, Verb } from './users';

interface Column { name: string, field: string, type: string, format: string, description: string, priority: number }

function columns(names: [string, string?][]): Column[] {
  return names.map(([name, format], i) => ({
    name, field: `$.metadata.fields[${ i }]`, type: format === 'int' ? 'integer' : 'string', format: format === 'int' ? '' : (format || ''), description: '', priority: 0
  }));
}

/** Table columns, in the order of the `metadata.fields` that scenarios/steve.ts fills. */
export function columnsFor(info: TypeInfo): Column[] {
  if (info.kind === 'Machine') {
    return columns([['Name', 'name'], ['Cluster'], ['NodeName'], ['ProviderID'], ['Phase'], ['Age', 'date'], ['Version']]);
  }
  if (info.group === '' && info.kind === 'Node') {
    return columns([['Name', 'name'], ['Status'], ['Roles'], ['Age', 'date'], ['Version'], ['Internal-IP'], ['External-IP'], ['OS-Image'], ['Kernel-Version'], ['Container-Runtime']]);
  }
  if (info.group === '' && info.kind === 'Secret') {
    return columns([['Name', 'name'], ['Type'], ['Data', 'int'], ['Age', 'date']]);
  }
  if (info.group === '' && info.kind === 'Event') {
    return columns([['Last Seen'], ['Type'], ['Reason'], ['Object'], ['Subobject'], ['Source'], ['Message'], ['First Seen'], ['Count', 'int'], ['Name', 'name']]);
  }

  return columns([['Name', 'name'], ['Age', 'date']]);
}

const ALL_VERBS: Verb[] = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/** Steve-only types that have no Kubernetes resource behind them. */
export const VIRTUAL_STEVE_TYPES: readonly { id: string, resourceMethods: string[], collectionMethods: string[] }[] = [
  {
    id: 'schema', resourceMethods: ['GET'], collectionMethods: ['GET']
  },
  {
    id: 'count', resourceMethods: ['GET'], collectionMethods: ['GET']
  },
  {
    id: 'userpreference', resourceMethods: ['GET', 'PUT'], collectionMethods: ['GET']
  },
];

export function steveSchema(info: TypeInfo, user: MockUser, prefix: string): Record<string, unknown> | undefined {
  const verbs: string[] = ALL_VERBS.filter((v) => user.can(v, info.id));

  if (!verbs.includes('list') && !verbs.includes('get')) {
    return undefined;
  }
  if (info.kind === 'Secret' || info.kind === 'Node' || info.kind === 'Namespace') {
    verbs.push('deletecollection');
  }
  const resourceMethods = ['GET'];

  if (verbs.includes('delete')) {
    resourceMethods.push('DELETE');
  }
  if (verbs.includes('update')) {
    resourceMethods.push('PUT');
  }
  if (verbs.includes('patch')) {
    resourceMethods.push('PATCH');
  }

  return {
    id:                info.id,
    type:              'schema',
    links:             { self: `${ prefix }/v1/schemas/${ info.id }`, collection: `${ prefix }/v1/${ info.id }s` },
    pluralName:        `${ info.id }s`,
    resourceMethods,
    collectionMethods: verbs.includes('create') ? ['GET', 'POST'] : ['GET'],
    resourceFields:    null,
    attributes:        {
      group: info.group, version: info.version, kind: info.kind, namespaced: info.namespaced, resource: info.resource, verbs: verbs.sort(), columns: columnsFor(info)
    },
  };
}

export function virtualSteveSchema(v: typeof VIRTUAL_STEVE_TYPES[number], prefix: string): Record<string, unknown> {
  return {
    id:                v.id,
    type:              'schema',
    links:             { self: `${ prefix }/v1/schemas/${ v.id }`, collection: `${ prefix }/v1/${ v.id }s` },
    pluralName:        `${ v.id }s`,
    resourceMethods:   v.resourceMethods,
    collectionMethods: v.collectionMethods,
    resourceFields:    {},
    attributes:        {},
  };
}

/**
 * `/v1/schemaDefinitions/<id>`: the shell fetches a type's fields before showing some pages.
 * Only the top-level shape is described; the pages shown here need no more.
 */
export function schemaDefinition(info: TypeInfo): Record<string, unknown> {
  const objectMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
  const resourceFields: Record<string, unknown> = {
    apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
    kind:       { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
    metadata:   { type: objectMeta, description: 'Standard object\'s metadata.' },
    spec:       { type: `${ info.id }.spec`, description: 'Specification of the desired behavior.' },
    status:     { type: `${ info.id }.status`, description: 'Most recently observed status.' },
  };

  return {
    id:             info.id,
    type:           'schemaDefinition',
    links:          {},
    definitionType: info.id,
    definitions:    {
      [info.id]: {
        type: info.id, description: `${ info.kind } (${ info.group || 'core' }/${ info.version })`, resourceFields
      },
      [`${ info.id }.spec`]:   {
        type: `${ info.id }.spec`, description: '', resourceFields: {}
      },
      [`${ info.id }.status`]: {
        type: `${ info.id }.status`, description: '', resourceFields: {}
      },
      [objectMeta]:            {
        type:           objectMeta,
        description:    'ObjectMeta is metadata that all persisted resources must have.',
        resourceFields: {
          name:        { type: 'string' },
          namespace:   { type: 'string' },
          labels:      { type: 'map[string]' },
          annotations: { type: 'map[string]' },
        },
      },
    },
  };
}

/** Norman (/v3) types the dashboard asks about, with the ones the embedded API serves. */
export const NORMAN_TYPES: readonly { id: string, plural: string, write: boolean }[] = [
  {
    id: 'user', plural: 'users', write: false
  },
  {
    id: 'principal', plural: 'principals', write: false
  },
  {
    id: 'setting', plural: 'settings', write: true
  },
  {
    id: 'cluster', plural: 'clusters', write: true
  },
  {
    id: 'clusterRegistrationToken', plural: 'clusterRegistrationTokens', write: true
  },
  {
    id: 'project', plural: 'projects', write: true
  },
  {
    id: 'node', plural: 'nodes', write: true
  },
  {
    id: 'nodePool', plural: 'nodePools', write: true
  },
  {
    id: 'nodeTemplate', plural: 'nodeTemplates', write: true
  },
  {
    id: 'token', plural: 'tokens', write: true
  },
  {
    id: 'preference', plural: 'preferences', write: true
  },
  {
    id: 'authConfig', plural: 'authConfigs', write: false
  },
  {
    id: 'globalRole', plural: 'globalRoles', write: false
  },
  {
    id: 'globalRoleBinding', plural: 'globalRoleBindings', write: false
  },
  {
    id: 'roleTemplate', plural: 'roleTemplates', write: false
  },
  {
    id: 'clusterRoleTemplateBinding', plural: 'clusterRoleTemplateBindings', write: true
  },
  {
    id: 'projectRoleTemplateBinding', plural: 'projectRoleTemplateBindings', write: true
  },
  {
    id: 'cloudCredential', plural: 'cloudCredentials', write: true
  },
  {
    id: 'kontainerDriver', plural: 'kontainerDrivers', write: false
  },
  {
    id: 'nodeDriver', plural: 'nodeDrivers', write: false
  },
];

export function normanSchema(t: typeof NORMAN_TYPES[number], user: MockUser, prefix: string): Record<string, unknown> {
  const write = t.write && user.can('update', `norman.${ t.id }`);

  return {
    id:                t.id,
    type:              'schema',
    baseType:          'schema',
    links:             { self: `${ prefix }/v3/schemas/${ t.id.toLowerCase() }`, collection: `${ prefix }/v3/${ t.plural.toLowerCase() }` },
    pluralName:        t.plural,
    resourceMethods:   write ? ['GET', 'PUT', 'DELETE'] : ['GET'],
    collectionMethods: write ? ['GET', 'POST'] : ['GET'],
    resourceFields:    {},
    resourceActions:   {},
    collectionActions: {},
    collectionFields:  {},
    collectionFilters: {},
    includeableLinks:  [],
    version:           {
      group: 'management.cattle.io', version: 'v3', path: '/v3'
    },
  };
}
