/**
 * Steve's list query parameters over kubectl-shaped objects: `labelSelector` and `fieldSelector`
 * (Kubernetes syntax), `filter` and `sort` (Steve's list processor), `limit`/`continue` and
 * `pagesize`/`page` pagination.
 */
import type { KubeObject } from '../scenarios/types';

export class QueryError extends Error {
  /** 400 for what cannot be parsed; Steve's SQL cache answers 422 for a field it has no column for */
  constructor(message: string, readonly status = 400) {
    super(message);
    this.name = 'QueryError';
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* label selectors                                                                                  */
/* ------------------------------------------------------------------------------------------------ */

export type Requirement =
  | { key: string, op: 'exists' | 'notexists' }
  | { key: string, op: 'eq' | 'neq', value: string }
  | { key: string, op: 'in' | 'notin', values: string[] };

const LABEL_KEY = /^([a-z0-9A-Z]([-a-z0-9A-Z._]*[a-z0-9A-Z])?\/)?[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Splits on commas outside parentheses: `a in (x,y),b` -> [`a in (x,y)`, `b`]. */
function splitTopLevel(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';

  for (const ch of selector) {
    if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
    }
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);

  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

function checkKey(key: string, selector: string): string {
  if (!LABEL_KEY.test(key)) {
    throw new QueryError(`unable to parse requirement: invalid label key "${ key }" in "${ selector }"`);
  }

  return key;
}

function checkValue(value: string, selector: string): string {
  if (!LABEL_VALUE.test(value) || value.length > 63) {
    throw new QueryError(`unable to parse requirement: invalid label value "${ value }" in "${ selector }"`);
  }

  return value;
}

export function parseLabelSelector(selector: string): Requirement[] {
  return splitTopLevel(selector).map((part): Requirement => {
    let m = /^([^\s!=]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(part);

    if (m) {
      const values = m[3].split(',').map((v) => checkValue(v.trim(), selector));

      return {
        key: checkKey(m[1], selector), op: m[2] as 'in' | 'notin', values
      };
    }
    m = /^([^\s!=]+)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (m) {
      return {
        key: checkKey(m[1], selector), op: m[2] === '!=' ? 'neq' : 'eq', value: checkValue(m[3].trim(), selector)
      };
    }
    m = /^!\s*([^\s!=]+)$/.exec(part);
    if (m) {
      return { key: checkKey(m[1], selector), op: 'notexists' };
    }
    if (/^[^\s!=(),]+$/.test(part)) {
      return { key: checkKey(part, selector), op: 'exists' };
    }
    throw new QueryError(`unable to parse requirement: "${ part }"`);
  });
}

export function matchesLabels(labels: Record<string, string> | undefined, requirements: Requirement[]): boolean {
  const l = labels || {};

  return requirements.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);

    switch (r.op) {
    case 'exists': return has;
    case 'notexists': return !has;
    case 'eq': return has && l[r.key] === r.value;
    // As in Kubernetes: != and notin also match objects that do not have the label at all.
    case 'neq': return !has || l[r.key] !== r.value;
    case 'in': return has && r.values.includes(l[r.key]);
    case 'notin': return !has || !r.values.includes(l[r.key]);
    }

    return false;
  });
}

/* ------------------------------------------------------------------------------------------------ */
/* field paths: metadata.name, metadata.labels[rke.cattle.io/machine], status.conditions.type ...  */
/* ------------------------------------------------------------------------------------------------ */

export function parseFieldPath(path: string): string[] {
  const parts: string[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;

  while ((m = re.exec(path)) !== null) {
    parts.push(m[1] !== undefined ? m[1] : m[2]);
  }

  return parts;
}

/** Every value at the path; arrays on the way fan out, as Steve's filter does. */
export function valuesAt(value: unknown, parts: string[]): unknown[] {
  if (!parts.length) {
    return Array.isArray(value) ? value : [value];
  }
  if (Array.isArray(value)) {
    return value.flatMap((item) => valuesAt(item, parts));
  }
  if (value && typeof value === 'object') {
    const [head, ...rest] = parts;
    const record = value as Record<string, unknown>;

    return Object.prototype.hasOwnProperty.call(record, head) ? valuesAt(record[head], rest) : [];
  }

  return [];
}

/** Steve presents a secret's type as `_type`; filters may name either. */
function filterTarget(obj: KubeObject, parts: string[]): unknown[] {
  if (obj.kind === 'Secret' && (parts[0] === '_type' || (parts.length === 1 && parts[0] === 'type'))) {
    return [obj.type];
  }
  if (parts[0] === 'id' && parts.length === 1) {
    return [obj.metadata.namespace ? `${ obj.metadata.namespace }/${ obj.metadata.name }` : obj.metadata.name];
  }

  return valuesAt(obj, parts);
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }

  return undefined;
}

interface FieldFilter { parts: string[], op: 'eq' | 'neq', value: string }

/**
 * `filter` values: one parameter is an OR of comma-separated `path=value` / `path!=value` terms;
 * several parameters are ANDed. A term matches when the field contains the value (Steve's partial
 * match on strings).
 */
export function parseFilters(filters: string[]): FieldFilter[][] {
  return filters.map((param) => param.split(',').filter((t) => t !== '').map((term) => {
    const m = /^([^!=]+)(!=|=)(.*)$/.exec(term);

    if (!m) {
      throw new QueryError(`invalid filter "${ term }": expected field=value or field!=value`);
    }

    return {
      parts: parseFieldPath(m[1]), op: m[2] === '!=' ? 'neq' : 'eq', value: m[3]
    } as FieldFilter;
  }));
}

export function matchesFilters(obj: KubeObject, filters: FieldFilter[][]): boolean {
  return filters.every((any) => any.some((f) => {
    const texts = filterTarget(obj, f.parts).map(scalarText).filter((t): t is string => t !== undefined);
    const contains = texts.some((t) => t.includes(f.value));

    return f.op === 'eq' ? contains : !contains;
  }));
}

/** Kubernetes fieldSelector: exact `path=value` / `path==value` / `path!=value`, comma = AND. */
export function matchesFieldSelector(obj: KubeObject, selector: string): boolean {
  return selector.split(',').map((t) => t.trim()).filter((t) => t).every((term) => {
    const m = /^([^!=]+)(==|=|!=)(.*)$/.exec(term);

    if (!m) {
      throw new QueryError(`invalid field selector "${ term }"`);
    }
    const actual = valuesAt(obj, m[1].split('.')).map(scalarText)[0] ?? '';

    return m[2] === '!=' ? actual !== m[3] : actual === m[3];
  });
}

/* ------------------------------------------------------------------------------------------------ */
/* sort and pagination                                                                              */
/* ------------------------------------------------------------------------------------------------ */

export function objectKey(obj: KubeObject): string {
  return `${ obj.metadata.namespace || '' }/${ obj.metadata.name }`;
}

export function sortObjects(objects: KubeObject[], sort: string | undefined): KubeObject[] {
  const byKey = (a: KubeObject, b: KubeObject) => objectKey(a).localeCompare(objectKey(b));

  if (!sort) {
    return [...objects].sort(byKey);
  }
  const fields = sort.split(',').filter((s) => s).map((s) => ({ desc: s.startsWith('-'), parts: parseFieldPath(s.replace(/^-/, '')) }));

  return [...objects].sort((a, b) => {
    for (const f of fields) {
      const va = scalarText(filterTarget(a, f.parts)[0]) ?? '';
      const vb = scalarText(filterTarget(b, f.parts)[0]) ?? '';
      const cmp = va.localeCompare(vb, undefined, { numeric: true });

      if (cmp) {
        return f.desc ? -cmp : cmp;
      }
    }

    return byKey(a, b);
  });
}

/**
 * Opaque to clients. In key order it holds the last key served, so the next page starts after it as in
 * Kubernetes (objects created meanwhile do not shift pages); under a custom sort, the offset.
 */
export function encodeContinue(lastKey: string, revision: string, offset?: number): string {
  return Buffer.from(JSON.stringify({
    v: 1, k: lastKey, rv: revision, ...(offset !== undefined ? { o: offset } : {})
  })).toString('base64url');
}

export function decodeContinue(token: string): { k: string, rv: string, o?: number } {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));

    if (parsed?.v === 1 && typeof parsed.k === 'string' && (parsed.o === undefined || Number.isInteger(parsed.o))) {
      return parsed;
    }
  } catch (e) {}
  throw new QueryError(`invalid continue token "${ token }"`);
}

export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  filter: string[];
  sort?: string;
  limit?: number;
  continueToken?: string;
  pageSize?: number;
  page?: number;
  include: string[];
  exclude: string[];
}

export function parseListQuery(params: URLSearchParams): ListQuery {
  const int = (name: string): number | undefined => {
    const raw = params.get(name);

    if (raw === null || raw === '') {
      return undefined;
    }
    const n = Number(raw);

    if (!Number.isInteger(n) || n < 0) {
      throw new QueryError(`invalid ${ name } "${ raw }"`);
    }

    return n;
  };
  const list = (name: string) => params.getAll(name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v);

  return {
    labelSelector: params.get('labelSelector') || undefined,
    fieldSelector: params.get('fieldSelector') || undefined,
    filter:        params.getAll('filter').filter((f) => f),
    sort:          params.get('sort') || undefined,
    limit:         int('limit') || undefined,
    continueToken: params.get('continue') || undefined,
    pageSize:      int('pagesize') || undefined,
    page:          int('page'),
    include:       list('include'),
    exclude:       list('exclude'),
  };
}

export interface ListResult {
  items: KubeObject[];
  /** all matches before paging */
  total: number;
  continueToken?: string;
  pages?: number;
}

export function runListQuery(objects: KubeObject[], q: ListQuery, revision: string): ListResult {
  const requirements = q.labelSelector ? parseLabelSelector(q.labelSelector) : [];
  const filters = parseFilters(q.filter);
  let matched = objects.filter((o) => matchesLabels(o.metadata.labels, requirements) && matchesFilters(o, filters) &&
    (!q.fieldSelector || matchesFieldSelector(o, q.fieldSelector)));

  matched = sortObjects(matched, q.sort);
  const total = matched.length;

  if (q.pageSize) {
    const page = Math.max(1, q.page || 1);
    const pages = Math.max(1, Math.ceil(total / q.pageSize));

    return {
      items: matched.slice((page - 1) * q.pageSize, page * q.pageSize), total, pages
    };
  }
  let offset = 0;

  if (q.continueToken) {
    const { k, o } = decodeContinue(q.continueToken);

    if (q.sort) {
      offset = o || 0;
      matched = matched.slice(offset);
    } else {
      matched = matched.filter((obj) => objectKey(obj).localeCompare(k) > 0);
    }
  }
  if (q.limit && matched.length > q.limit) {
    const items = matched.slice(0, q.limit);

    return {
      items, total, continueToken: encodeContinue(objectKey(items[items.length - 1]), revision, q.sort ? offset + q.limit : undefined)
    };
  }

  return { items: matched, total };
}

/* ------------------------------------------------------------------------------------------------ */
/* Steve's SQL cache (feature ui-sql-cache): its own list processor                                 */
/* ------------------------------------------------------------------------------------------------ */

/**
 * How Steve answers lists. `sql`: its SQL cache (the `ui-sql-cache` feature, on by default in current Rancher):
 * the list processor (steve pkg/stores/sqlpartition/listprocessor) reads only `filter`, `sort`, `pagesize`, `page`,
 * `revision`, `projectsornamespaces` and `summary`; `labelSelector`, `fieldSelector`, `limit` and `continue` are
 * ignored. `classic`: the proxy store, which passes selectors, `limit` and `continue` to Kubernetes and reads
 * `filter` as a substring match.
 */
export type CacheMode = 'sql' | 'classic';

/** Fields every SQL-cached type can be filtered and sorted on (steve's default and common indexed fields). */
const SQL_COMMON_FIELDS = new Set(['metadata.name', 'metadata.namespace', 'metadata.creationTimestamp', 'id', 'metadata.state.name']);

/** Type-specific indexed fields of the types the embedded API serves (steve pkg/stores/sqlproxy TypeSpecificIndexedFields). */
const SQL_TYPE_FIELDS: Record<string, string[]> = {
  secret:                               ['_type', 'spec.clusterName', 'spec.displayName'],
  node:                                 ['spec.taints.key', 'status.addresses.type', 'status.nodeInfo.kubeletVersion', 'status.nodeInfo.operatingSystem'],
  event:                                ['_type', 'involvedObject.kind', 'involvedObject.uid', 'message', 'reason'],
  namespace:                            ['spec.displayName'],
  'cluster.x-k8s.io.machine':           ['spec.clusterName'],
  'cluster.x-k8s.io.machinedeployment': ['spec.clusterName'],
  'management.cattle.io.node':          ['status.nodeName'],
  'management.cattle.io.project':       ['spec.clusterName', 'spec.displayName'],
  'management.cattle.io.cluster':       [
    'spec.displayName', 'spec.internal', 'spec.fleetWorkspaceName', 'status.connected', 'status.provider', 'status.driver', 'status.info.kubernetesVersion',
    'status.info.machineProvider', 'status.info.nodeCount', 'status.allocatable.cpu', 'status.allocatable.memory', 'status.allocatable.pods',
    'status.requested.cpu', 'status.requested.memory', 'status.requested.pods',
  ],
  'provisioning.cattle.io.cluster':     [
    'metadata.annotations[provisioning.cattle.io/management-cluster-display-name]', 'status.allocatable.cpu', 'status.allocatable.memory',
    'status.allocatable.pods', 'status.clusterName', 'status.provider', 'status.requested.cpu', 'status.requested.memory', 'status.requested.pods',
  ],
  'catalog.cattle.io.app':              ['spec.chart.metadata.name'],
  'catalog.cattle.io.clusterrepo':      ['metadata.annotations[clusterrepo.cattle.io/hidden]', 'spec.gitBranch', 'spec.gitRepo'],
  'rke.cattle.io.etcdsnapshot':         ['snapshotFile.createdAt', 'spec.clusterName'],
};

/** Whether the SQL cache has a column for this field of the type; labels are indexed for every type. */
export function sqlIndexed(typeId: string, parts: string[]): boolean {
  if (parts[0] === 'metadata' && parts[1] === 'labels' && parts.length === 3) {
    return true;
  }
  if (parts[0] === 'metadata' && parts[1] === 'fields' && parts.length === 3 && /^\d+$/.test(parts[2])) {
    return true;
  }
  const id = parts[0] === 'metadata' && parts[1] === 'annotations' && parts.length === 3 ? `metadata.annotations[${ parts[2] }]` : parts.join('.');

  return SQL_COMMON_FIELDS.has(id) || (SQL_TYPE_FIELDS[typeId] ?? []).includes(id);
}

type SqlOp = 'eq' | 'neq' | 'partial' | 'notpartial' | 'in' | 'notin' | 'exists' | 'notexists' | 'lt' | 'gt';

interface SqlFilter { parts: string[], op: SqlOp, values: string[] }

const SQL_TERM = /^\s*(!?)\s*([^\s!=~<>()]+)\s*(?:(==|=|!=|~|!~|<|>|\bgt\b|\blt\b)\s*(.*?)|\s+(in|notin)\s*\(([^)]*)\))?\s*$/i;

/**
 * One `filter` value in the SQL cache's grammar (steve pkg/stores/sqlpartition/queryparser, Kubernetes label
 * selector syntax plus `~` partial match): comma-separated terms are ORed, separate `filter` parameters ANDed.
 * `=` and `==` match exactly. A field the cache has no column for fails the request, as Steve's does.
 */
export function parseSqlFilter(typeId: string, filter: string): SqlFilter[] {
  return splitTopLevel(filter).map((term) => {
    const m = SQL_TERM.exec(term);

    if (!m) {
      throw new QueryError(`unable to parse requirement: "${ term }"`);
    }
    const [, bang, field, op, value, setOp, setValues] = m;
    const parts = parseFieldPath(field);

    if (!sqlIndexed(typeId, parts)) {
      throw new QueryError(`column is invalid [${ field }]: supplied column is invalid`, 422);
    }
    if (bang) {
      if (op || setOp) {
        throw new QueryError(`unable to parse requirement: "${ term }"`);
      }

      return {
        parts, op: 'notexists', values: []
      };
    }
    if (setOp) {
      return {
        parts, op: setOp.toLowerCase() as 'in' | 'notin', values: setValues.split(',').map((v) => v.trim())
      };
    }
    if (!op) {
      return {
        parts, op: 'exists', values: []
      };
    }
    const ops: Record<string, SqlOp> = {
      '=': 'eq', '==': 'eq', '!=': 'neq', '~': 'partial', '!~': 'notpartial', '<': 'lt', lt: 'lt', '>': 'gt', gt: 'gt'
    };

    return {
      parts, op: ops[op.toLowerCase()], values: [value]
    };
  });
}

function matchesSql(obj: KubeObject, f: SqlFilter): boolean {
  const texts = filterTarget(obj, f.parts).map(scalarText).filter((t): t is string => t !== undefined);
  const [v] = f.values;

  switch (f.op) {
  case 'eq': return texts.includes(v);
  case 'neq': return !texts.includes(v);
  case 'partial': return texts.some((t) => t.includes(v));
  case 'notpartial': return !texts.some((t) => t.includes(v));
  case 'in': return texts.some((t) => f.values.includes(t));
  case 'notin': return !texts.some((t) => f.values.includes(t));
  case 'exists': return texts.length > 0;
  case 'notexists': return texts.length === 0;
  case 'lt': return texts.some((t) => Number(t) < Number(v));
  case 'gt': return texts.some((t) => Number(t) > Number(v));
  }

  return false;
}

/** The SQL cache's answer: filters, sort, `pagesize`/`page` with a continue token of the next offset. */
export function runSqlListQuery(objects: KubeObject[], typeId: string, params: URLSearchParams): ListResult {
  const filters = params.getAll('filter').filter((f) => f).map((f) => parseSqlFilter(typeId, f));
  const sort = params.get('sort') || undefined;

  for (const s of (sort || '').split(',').filter((x) => x)) {
    const parts = parseFieldPath(s.replace(/^-/, '').replace(/^ip\((.*)\)$/, '$1'));

    if (!sqlIndexed(typeId, parts)) {
      throw new QueryError(`column is invalid [${ parts.join('.') }]: supplied column is invalid`, 422);
    }
  }
  const matched = sortObjects(objects.filter((o) => filters.every((any) => any.some((f) => matchesSql(o, f)))), sort);
  const total = matched.length;
  const pageSize = Number(params.get('pagesize'));
  const page = Number(params.get('page'));

  if (!Number.isInteger(pageSize) || pageSize <= 0) {
    return { items: matched, total };
  }
  const offset = Number.isInteger(page) && page >= 1 ? (page - 1) * pageSize : 0;
  const items = matched.slice(offset, offset + pageSize);

  return {
    items, total, continueToken: offset + items.length < total ? String(offset + pageSize) : undefined
  };
}
