/**
 * Fault injection for tests: "the next N requests like this one fail with <status>", or "just before
 * the next request like this one, someone else changes the object it addresses" (a concurrent write
 * that moves the resourceVersion on, so an optimistic write fails as it would in a busy cluster).
 */

export interface FaultMatch {
  /** HTTP method, e.g. PATCH */
  method?: string;
  /** Steve type id (cluster.x-k8s.io.machine, secret, ...) or `norman.<plural>` */
  type?: string;
  /** `local` or a management cluster id */
  cluster?: string;
  namespace?: string;
  name?: string;
  /** a substring of the request path */
  path?: string;
  /** the user name making the request */
  user?: string;
}

export interface FaultSpec {
  match: FaultMatch;
  /** how many matching requests it applies to (default 1) */
  times?: number;
  /** answer with this status (401, 403, 404, 409, 500, 503 ...) instead of serving the request */
  status?: number;
  message?: string;
  /** wait this long before answering (with or without a status) */
  delayMs?: number;
  /** change the addressed object first: merge patch it, or just bump its resourceVersion */
  concurrent?: { mergePatch?: Record<string, unknown>, bump?: boolean };
}

export interface Fault extends FaultSpec {
  id: number;
  remaining: number;
  hits: number;
}

export interface RequestFacts {
  method: string;
  path: string;
  user?: string;
  type?: string;
  cluster?: string;
  namespace?: string;
  name?: string;
}

export function validateFault(raw: unknown): FaultSpec {
  const f = raw as FaultSpec;

  if (!f || typeof f !== 'object' || !f.match || typeof f.match !== 'object') {
    throw new Error('a fault needs a "match" object (method, type, cluster, namespace, name, path, user)');
  }
  if (f.status === undefined && !f.concurrent && f.delayMs === undefined) {
    throw new Error('a fault needs "status", "concurrent" or "delayMs"');
  }
  if (f.status !== undefined && (!Number.isInteger(f.status) || f.status < 400 || f.status > 599)) {
    throw new Error('"status" must be an HTTP error status (400-599)');
  }
  if (f.times !== undefined && (!Number.isInteger(f.times) || f.times < 1)) {
    throw new Error('"times" must be a positive integer');
  }

  return f;
}

export class FaultQueue {
  private faults: Fault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const fault: Fault = {
      ...spec, id: this.nextId++, remaining: spec.times || 1, hits: 0
    };

    this.faults.push(fault);

    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }

  /** The first pending fault that matches, used up by one; undefined when none applies. */
  take(facts: RequestFacts): Fault | undefined {
    const fault = this.faults.find((f) => matches(f.match, facts));

    if (!fault) {
      return undefined;
    }
    fault.remaining -= 1;
    fault.hits += 1;
    if (fault.remaining <= 0) {
      this.faults = this.faults.filter((f) => f !== fault);
    }

    return { ...fault };
  }
}

function matches(m: FaultMatch, facts: RequestFacts): boolean {
  return (!m.method || m.method.toUpperCase() === facts.method) &&
    (!m.type || m.type === facts.type || `${ m.type }s` === facts.type || m.type === `${ facts.type }s`) &&
    (!m.cluster || m.cluster === facts.cluster) &&
    (!m.namespace || m.namespace === facts.namespace) &&
    (!m.name || m.name === facts.name) &&
    (!m.path || facts.path.includes(m.path)) &&
    (!m.user || m.user === facts.user);
}
