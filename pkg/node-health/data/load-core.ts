/**
 * The loader core the cluster's tab (load.ts), the fleet (../fleet/load.ts) and the command line's `--server` (on
 * those two) share: how one list is read (from the store where it holds it complete, from an earlier load when
 * nothing of it changed, else every page from Steve, plan secrets reduced to their status keys), how its answer is
 * judged (read, partial, forbidden, hidden, failed), and what a load keeps of it: availability per input, the
 * issues, the requests sent and the objects per list.
 */
import { asObject } from '../engine';
import type { Availability, InputName, KubeObject } from '../engine';
import { describeFailure } from './errors';
import type { RequestFailure } from './errors';
import { infraType } from './requests';
import type { InfraKind } from './requests';
import { sanitizePlanSecret } from './sanitize';
import type { Dispatch, LoadIssue, LoadResult } from './types';

/** A runaway `pagination.next` chain stops here rather than loop forever. */
const MAX_PAGES = 500;

export const ALL_INPUTS: readonly InputName[] = [
  'machines', 'planSecrets', 'bootstraps', 'infraMachines', 'mgmtNodes', 'nodes', 'leases', 'capiClusters', 'machineHealthChecks', 'machineDeployments', 'machineSets',
];

class UnexpectedAnswer extends Error {}

export type Settled<T> = { ok: true; value: T } | { ok: false; failure: RequestFailure };

export async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (err) {
    return { ok: false, failure: describeFailure(err) };
  }
}

/** Every page of one collection, and the revision Steve gave with its first page (empty when it gave none). */
export interface Collection {
  items: KubeObject[];
  revision: string;
}

/**
 * Every page of one collection, through the store's raw request; rejects with the first failure. The revision is
 * the first page's: a watch started from it misses nothing that changed while the later pages were read.
 */
export async function fetchPages<I extends string = string>(
  dispatch: Dispatch, request: { input: I; url: string }, log: { input: I; url: string }[], transform?: (item: unknown) => KubeObject
): Promise<Collection> {
  const items: KubeObject[] = [];
  const visited = new Set<string>();
  let url: string | null = request.url;
  let revision: string | null = null;

  while (url && !visited.has(url) && visited.size < MAX_PAGES) {
    visited.add(url);
    log.push({ input: request.input, url });
    const answer = await dispatch('management/request', { url, redirectUnauthorized: false });
    const data = asObject(answer).data;

    if (!Array.isArray(data)) {
      throw new UnexpectedAnswer(`not a collection: ${ url }`);
    }
    if (revision === null) {
      const given = asObject(answer).revision;

      revision = typeof given === 'string' ? given : '';
    }
    for (const item of data) {
      items.push(transform ? transform(item) : item);
    }
    const next = asObject(asObject(answer).pagination).next;

    url = typeof next === 'string' && next ? next : null;
  }

  return { items, revision: revision ?? '' };
}

/** Every page of one collection, through the store's raw request; rejects with the first failure. */
export async function fetchCollection<I extends string = string>(
  dispatch: Dispatch, request: { input: I; url: string }, log: { input: I; url: string }[], transform?: (item: unknown) => KubeObject
): Promise<KubeObject[]> {
  return (await fetchPages(dispatch, request, log, transform)).items;
}

export function availabilityOf(kind: LoadIssue['kind']): Availability {
  return kind === 'forbidden' || kind === 'hidden' ? 'forbidden' : 'error';
}

const AVAILABILITY_RANK: Record<Availability, number> = {
  absent: 0, ok: 1, partial: 2, forbidden: 3, error: 4
};

export function worse(a: Availability, b: Availability): Availability {
  return AVAILABILITY_RANK[b] > AVAILABILITY_RANK[a] ? b : a;
}

/** An issue of a load whose requests may also read lists that are no node input (the fleet's clusters). */
export type ReadIssue<I extends string> = Omit<LoadIssue, 'input'> & { input: I };

/**
 * What one answer makes of its input. A list the user may not read in full holds only what they may see; a 404
 * for it is the type's schema hidden.
 */
export function judgeAnswer<I extends string>(
  request: { input: I; infra?: InfraKind }, result: Settled<unknown>, mayListAll: boolean
): { outcome: Availability, issue?: ReadIssue<I> } {
  const subject = request.infra ? { subject: infraType(request.infra) } : {};

  if (!result.ok) {
    const kind = result.failure.kind === 'not-found' && !mayListAll ? 'hidden' : result.failure.kind;

    return {
      outcome: availabilityOf(kind),
      issue:   {
        input: request.input, ...result.failure, kind, ...subject
      }
    };
  }
  if (!mayListAll) {
    return {
      outcome: 'partial',
      issue:   {
        input: request.input, kind: 'partial', status: null, message: null, ...subject
      }
    };
  }

  return { outcome: 'ok' };
}

/** One list to read: the input it feeds (or another list of the load), and where. */
export interface ListRequest<I extends string> {
  input: I;
  url: string;
  infra?: InfraKind;
  /** never from the cache nor into it: the list is not watched */
  unwatched?: true;
}

/** The lists of earlier loads, by request. */
export interface ListCache<R = ListRequest<InputName>> {
  /** The objects last read for this request, when nothing of them can have changed since. */
  get(request: R): KubeObject[] | undefined;
  /** The request is about to be sent. */
  reading(request: R): void;
  /** Its answer, every page of it, and the revision Steve read it at ('' when it gave none). */
  set(request: R, items: KubeObject[], revision: string): void;
}

export interface ListReadsOptions<I extends string, R extends ListRequest<I>> {
  /** complete lists the store holds: these are not requested */
  fromStore?: Partial<Record<I, KubeObject[]>>;
  /** lists read before that cannot have changed since: used instead of asking again */
  cache?: ListCache<R>;
}

function isNodeInput(input: string): input is InputName {
  return (ALL_INPUTS as readonly string[]).includes(input);
}

/** One load's reads and what it keeps of their answers. */
export class ListReads<I extends string, R extends ListRequest<I> = ListRequest<I>> {
  readonly availability = Object.fromEntries(ALL_INPUTS.map((i) => [i, 'absent'])) as LoadResult['availability'];
  readonly issues: ReadIssue<I>[] = [];
  readonly requests: { input: I; url: string; reused?: true }[] = [];
  private readonly lists = new Map<I, KubeObject[]>();
  private readonly dispatch: Dispatch;
  private readonly options: ListReadsOptions<I, R>;

  constructor(dispatch: Dispatch, options: ListReadsOptions<I, R> = {}) {
    this.dispatch = dispatch;
    this.options = options;
  }

  /** One list: the store's copy, an earlier load's, or every page from Steve (plan secrets reduced to their status keys). */
  read(request: R): Promise<Settled<KubeObject[]>> {
    const stored = this.options.fromStore?.[request.input];

    if (stored) {
      return Promise.resolve({ ok: true, value: stored });
    }
    const cache = request.unwatched ? undefined : this.options.cache;
    const cached = cache?.get(request);

    if (cached) {
      this.requests.push({
        input: request.input, url: request.url, reused: true
      });

      return Promise.resolve({ ok: true, value: cached });
    }
    cache?.reading(request);
    const transform = request.input === 'planSecrets' ? sanitizePlanSecret : undefined;

    return settle(fetchPages(this.dispatch, request, this.requests, transform).then(({ items, revision }) => {
      cache?.set(request, items, revision);

      return items;
    }));
  }

  /**
   * Takes one answer in: judged, its input's availability (an input read in several requests, as infrastructure
   * machines per kind, is as good as its worst), its issue, and the objects `keep` keeps of it (all by default);
   * with `hiddenWhenNoneKept`, an answer of which nothing is kept counts as hidden.
   */
  take(request: R, result: Settled<KubeObject[]>, mayListAll: boolean, keep?: (items: KubeObject[]) => KubeObject[], hiddenWhenNoneKept = false): void {
    let { outcome, issue } = judgeAnswer(request, result, mayListAll);

    if (result.ok) {
      const kept = keep ? keep(result.value) : result.value;

      this.lists.set(request.input, [...(this.lists.get(request.input) ?? []), ...kept]);
      // A kind asked for because the machines use it, answered with none of them: Steve hides it.
      if (hiddenWhenNoneKept && kept.length === 0) {
        outcome = 'forbidden';
        issue = {
          input: request.input, kind: 'hidden', status: null, message: null, subject: request.infra ? infraType(request.infra) : request.url
        };
      }
    }
    if (isNodeInput(request.input)) {
      // An input read in several requests (infrastructure machines per kind, a record's lists per selector) is as good as its worst.
      this.availability[request.input] = worse(this.availability[request.input], outcome);
    }
    if (issue) {
      this.issues.push(issue);
    }
  }

  /** The objects kept of an input's answers. */
  list(input: I): KubeObject[] {
    return this.lists.get(input) ?? [];
  }

  /** The input was read (in full or in part). */
  wasRead(input: InputName): boolean {
    return this.availability[input] === 'ok' || this.availability[input] === 'partial';
  }

  /**
   * Steve answers a list the user may not read with an empty list, not a 403. Where objects must exist for what
   * was found elsewhere, an empty answer means "hidden", and claiming "missing" would be wrong.
   */
  hidden(input: InputName & I, expected: boolean, found: number, subject?: string): void {
    if (this.wasRead(input) && expected && found === 0) {
      this.availability[input] = 'forbidden';
      this.issues.push({
        input, kind: 'hidden', status: null, message: null, ...(subject ? { subject } : {})
      });
    }
  }
}
