/**
 * The command line against a running Rancher: the tab's own loader and requests (one cluster) or the fleet's
 * (every cluster), sent to Rancher's Steve API with an API token instead of through the dashboard store. Only GET
 * requests to the given server are made, and the POSTs of the access reviews that tell whether a list is complete
 * (as the tab asks them); a `pagination.next` that points anywhere else is refused, so the token never leaves for
 * another host. Lists are asked for in the form Steve's mode honours, read from Rancher's `ui-sql-cache` feature
 * as the dashboard reads it.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createGunzip } from 'node:zlib';
import {
  accessReviews, clusterTarget, fatalIssue, loadClusterData, loadTimelineInputs
} from '../pkg/node-health/data';
import type { ClusterTarget, Dispatch, LoadResult } from '../pkg/node-health/data';
import { fetchCollection } from '../pkg/node-health/data/load-core';
import { clusterInput, diagnoseInput } from '../pkg/node-health/data/input';
import type { DiagnosisInput } from '../pkg/node-health/data/input';
import type { ListForm } from '../pkg/node-health/data/requests';
import { STEVE_CACHE_FEATURE } from '../pkg/node-health/data/steve-mode';
import type { KubeObject } from '../pkg/node-health/engine';
import { loadFleetData } from '../pkg/node-health/fleet/load';
import type { FleetIssue } from '../pkg/node-health/fleet/load';
import { fleetFatalIssue } from '../pkg/node-health/fleet/source';
import { fleetClustersRequest } from '../pkg/node-health/fleet/requests';

/** A Steve answer larger than this is refused rather than held in memory. */
const MAX_BODY_BYTES = 1024 * 1024 * 1024;
const TIMEOUT_MS = 120000;

/** One line for the user; the command exits 2 with it. */
export class RancherError extends Error {}

export interface RancherOptions {
  server: string;
  tokenFile: string;
  caFile?: string;
  insecure?: boolean;
}

export interface Connection {
  origin: string;
  token: string;
  ca?: string;
  insecure: boolean;
}

/** The only writes made: asking whether the user may list a resource, which changes nothing. */
const ACCESS_REVIEW_PATH = /^(\/k8s\/clusters\/[^/]+)?\/apis\/authorization\.k8s\.io\/v1\/selfsubjectaccessreviews$/;

/** Node's codes for a certificate the client could not trust. */
const TLS_CODES = /^(UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|CERT_|ERR_TLS_|ERR_SSL_|HOSTNAME_MISMATCH)/;

export function connect(options: RancherOptions, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): Connection {
  let url: URL;

  try {
    url = new URL(options.server);
  } catch {
    throw new RancherError(`--server must be a URL such as https://rancher.example.com, not ${ JSON.stringify(options.server) }`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RancherError(`--server must be an http(s) URL, not ${ JSON.stringify(options.server) }`);
  }
  let token: string;

  try {
    token = readFile(options.tokenFile).trim();
  } catch (e: any) {
    throw new RancherError(`--token-file ${ options.tokenFile }: cannot be read (${ e?.code ?? e?.message ?? e })`);
  }
  if (!token || /\s/.test(token)) {
    throw new RancherError(`--token-file ${ options.tokenFile }: must hold one API token (token-xxxxx:yyyy), nothing else`);
  }
  let ca: string | undefined;

  if (options.caFile) {
    try {
      ca = readFile(options.caFile);
    } catch (e: any) {
      throw new RancherError(`--ca-file ${ options.caFile }: cannot be read (${ e?.code ?? e?.message ?? e })`);
    }
  }

  return {
    origin: url.origin, token, ca, insecure: !!options.insecure
  };
}

/** What went wrong on the way, in one line. */
function transportMessage(err: any, origin: string): string {
  const code = typeof err?.code === 'string' ? err.code : '';

  if (TLS_CODES.test(code)) {
    return `${ origin }: TLS: ${ err.message } (give Rancher's CA with --ca-file, or --insecure to skip the check)`;
  }

  return `${ origin }: cannot connect (${ code || err?.message || err })`;
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = /gzip/i.test(String(res.headers['content-encoding'] ?? '')) ? res.pipe(createGunzip()) : res;
    const chunks: Buffer[] = [];
    let size = 0;

    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.destroy();
        reject(Object.assign(new Error(`answer larger than ${ MAX_BODY_BYTES } bytes`), { code: 'ETOOBIG' }));

        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

/**
 * The store's `management/request` over HTTP: the answer's JSON, or a rejection shaped as the shell's (the
 * server's error body with the status in `_status`; a transport failure with its `code`), which the loader
 * reads with describeFailure.
 */
export function rancherDispatch(conn: Connection): Dispatch {
  return (type, payload) => {
    if (type !== 'management/request' || typeof payload?.url !== 'string') {
      return Promise.reject(new Error(`not supported on the command line: ${ type }`));
    }
    const url = new URL(payload.url, conn.origin);
    const method = payload.method ?? 'GET';

    if (url.origin !== conn.origin) {
      return Promise.reject(Object.assign(new Error(`refusing to follow ${ url.origin }: not the server given`), { code: 'EFOREIGN' }));
    }
    if (method !== 'GET' && !(method === 'POST' && ACCESS_REVIEW_PATH.test(url.pathname))) {
      return Promise.reject(new Error(`not supported on the command line: ${ method } ${ url.pathname }`));
    }
    const body = method === 'POST' ? JSON.stringify(payload.data ?? {}) : undefined;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;

    return new Promise((resolve, reject) => {
      const req = send(url, {
        method,
        headers: {
          authorization: `Bearer ${ conn.token }`, accept: 'application/json', 'accept-encoding': 'gzip', ...(body ? { 'content-type': 'application/json' } : {})
        },
        ...(url.protocol === 'https:' ? { ca: conn.ca, rejectUnauthorized: !conn.insecure } : {}),
        timeout: TIMEOUT_MS,
      }, (res) => {
        readBody(res).then((text) => {
          const status = res.statusCode ?? 0;
          let body: any = null;

          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            // A pod's log is plain text (data/timeline.ts reads it as the dashboard's store hands it: a string).
            body = String(res.headers['content-type'] ?? '').startsWith('text/plain') ? text : null;
          }
          if (status >= 200 && status < 300 && body !== null) {
            resolve(body);

            return;
          }
          const message = typeof body?.message === 'string' ? body.message : (status >= 200 && status < 300 ? 'not JSON' : res.statusMessage ?? '');
          const error = {
            type: 'error', status, message
          };

          Object.defineProperty(error, '_status', { value: status >= 200 && status < 300 ? 502 : status });
          reject(error);
        }, (e) => reject(Object.assign(new Error(transportMessage(e, conn.origin)), { code: e?.code ?? 'EREAD' })));
      });

      req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      req.on('error', (e: any) => reject(Object.assign(new Error(transportMessage(e, conn.origin)), { code: e?.code ?? 'ENET' })));
      req.end(body);
    });
  };
}

/** Steve's mode as the dashboard reads it (the ui-sql-cache feature's value, else its default); selectors when it cannot be read. */
export async function listFormOfServer(dispatch: Dispatch): Promise<ListForm> {
  try {
    const feature = await dispatch('management/request', { url: `/v1/management.cattle.io.features/${ STEVE_CACHE_FEATURE }`, redirectUnauthorized: false });
    const on = feature?.spec?.value ?? feature?.status?.default;

    return on === true ? 'filter' : 'selectors';
  } catch {
    return 'selectors';
  }
}

type Issue = Pick<FleetIssue, 'kind' | 'status' | 'message'>;

/** The one line for a load that failed as a whole. */
export function failureLine(issue: Issue, origin: string): string {
  switch (issue.kind) {
  case 'unauthorized':
    return `${ origin }: Rancher did not accept the token (401): it is wrong, expired or disabled`;
  case 'forbidden':
    return `${ origin }: the token's user may not read this (403)${ issue.message ? `: ${ issue.message }` : '' }`;
  case 'network':
    return issue.message ?? `${ origin }: cannot connect`;
  default:
    return `${ origin }: ${ issue.status ? `HTTP ${ issue.status }` : 'the request failed' }${ issue.message ? `: ${ issue.message }` : '' }`;
  }
}

/** A partial failure: said on stderr, the diagnosis goes on without that input, or without what it may lack. */
export function partialLine(issue: FleetIssue): string {
  const what = `${ issue.input }${ issue.subject ? ` (${ issue.subject })` : '' }`;

  if (issue.kind === 'partial') {
    return `the token's user may read only some ${ what }: nothing is called missing for not being among them`;
  }
  const why = issue.kind === 'hidden' ? 'Rancher does not show them to the token\'s user' : `${ issue.kind }${ issue.status ? ` (${ issue.status })` : '' }`;

  return `could not read ${ what }: ${ why }; checks that need them are skipped`;
}

export interface RancherDiagnosis {
  /** what was read, as the tab (one cluster, with the stories of its unhealthy records) or the fleet page reads it */
  input: DiagnosisInput;
  partial: FleetIssue[];
}

/** Finds a provisioning cluster by name (or namespace/name) in the clusters the token's user may see. */
export async function findCluster(dispatch: Dispatch, name: string, origin: string): Promise<ClusterTarget> {
  let clusters: KubeObject[];

  try {
    clusters = await fetchCollection(dispatch, fleetClustersRequest(), []);
  } catch (e) {
    const { describeFailure } = await import('../pkg/node-health/data/errors');

    throw new RancherError(failureLine(describeFailure(e), origin));
  }
  const [ns, plain] = name.includes('/') ? name.split('/', 2) : [null, name];
  const matches = clusters.filter((c) => c?.metadata?.name === plain && (!ns || c?.metadata?.namespace === ns));

  if (matches.length === 0) {
    throw new RancherError(`${ origin }: no cluster named ${ JSON.stringify(name) } among the ${ clusters.length } the token's user may see`);
  }
  if (matches.length > 1) {
    throw new RancherError(`${ origin }: several clusters are named ${ JSON.stringify(name) }; give <namespace>/<name> (${ matches.map((c) => `${ c.metadata.namespace }/${ c.metadata.name }`).join(', ') })`);
  }
  const target = clusterTarget(matches[0]);

  if (!target) {
    throw new RancherError(`${ origin }: cluster ${ JSON.stringify(name) } has no name or namespace`);
  }

  return target;
}

/** The timeline is read for at most this many records that are not healthy: each costs a few requests. */
export const TIMELINE_RECORDS = 50;

/** How many records' stories are read at once. */
const TIMELINE_READERS = 4;

/**
 * The Events about the records that are not healthy and, for node-driver machines, Rancher's create and delete
 * Jobs with their pods' last log lines, as the tab reads them when a row opens (data/timeline.ts), so that the
 * reports tell their stories; what may not be read is left out, as the tab does.
 */
async function storiesOfUnhealthy(dispatch: Dispatch, input: DiagnosisInput, form: ListForm, now?: () => number): Promise<KubeObject[]> {
  const report = diagnoseInput({ ...input, now: now ? now() : Date.now() });
  const unhealthy = report.records.filter((r) => r.status !== 'healthy').slice(0, TIMELINE_RECORDS);
  const seen = new Set<string>();
  const out: KubeObject[] = [];
  // A few records at a time: each is a few rounds of requests, and fifty in a row wait on each other for nothing.
  const stories: Awaited<ReturnType<typeof loadTimelineInputs>>[] = new Array(unhealthy.length);
  let next = 0;
  const reader = async() => {
    for (let i = next++; i < unhealthy.length; i = next++) {
      stories[i] = await loadTimelineInputs({ dispatch }, unhealthy[i], form);
    }
  };

  await Promise.all(Array.from({ length: Math.min(TIMELINE_READERS, unhealthy.length) }, reader));
  for (const { inputs, jobs } of stories) {
    for (const e of inputs.events ?? []) {
      const key = String(e.metadata?.uid ?? `${ e.metadata?.namespace }/${ e.metadata?.name }`);

      if (!seen.has(key)) {
        seen.add(key);
        // Steve's envelope may lack the kind; the engine recognises an Event by it.
        out.push({
          apiVersion: 'v1', kind: 'Event', ...e
        });
      }
    }
    out.push(...jobs);
  }

  return out;
}

export async function diagnoseCluster(dispatch: Dispatch, name: string, origin: string, now?: () => number): Promise<RancherDiagnosis> {
  const target = await findCluster(dispatch, name, origin);
  const form = await listFormOfServer(dispatch);
  const load: LoadResult = await loadClusterData(dispatch, target, {
    now, form, reviews: accessReviews(dispatch)
  });
  const fatal = fatalIssue(target, load);

  if (fatal) {
    throw new RancherError(failureLine(fatal, origin));
  }
  const input = clusterInput(target, load);
  const stories = await storiesOfUnhealthy(dispatch, input, form, now);

  return { input: { ...input, objects: [...input.objects, ...stories] }, partial: load.issues };
}

export async function diagnoseAllClusters(dispatch: Dispatch, origin: string, now?: () => number): Promise<RancherDiagnosis> {
  const load = await loadFleetData(dispatch, {
    now, form: await listFormOfServer(dispatch), reviews: accessReviews(dispatch)
  });
  const fatal = fleetFatalIssue(load);

  if (fatal) {
    throw new RancherError(failureLine(fatal, origin));
  }

  return { input: load.input, partial: load.issues.filter((i) => i.input !== 'mgmtClusters') };
}

export const RANCHER_OPTIONS = {
  server:         { type: 'string' },
  'token-file':   { type: 'string' },
  cluster:        { type: 'string' },
  'all-clusters': { type: 'boolean', default: false },
  'ca-file':      { type: 'string' },
  insecure:       { type: 'boolean', default: false },
} as const;

export const RANCHER_USAGE = '--server URL --token-file FILE (--cluster [NAMESPACE/]NAME | --all-clusters) [--ca-file FILE | --insecure]';

/**
 * From a command's options to a diagnosis read from Rancher, or null when none of the Rancher options was given
 * (the command reads files). Misuse and failures throw RancherError.
 */
export async function diagnoseFromRancher(values: Record<string, unknown>, positionals: string[], readFile?: (path: string) => string): Promise<RancherDiagnosis | null> {
  const given = ['server', 'token-file', 'cluster', 'ca-file'].some((k) => values[k] !== undefined) || !!values['all-clusters'] || !!values.insecure;

  if (!given) {
    return null;
  }
  if (!values.server || !values['token-file']) {
    throw new RancherError(`reading from Rancher needs --server and --token-file (usage: ${ RANCHER_USAGE })`);
  }
  if (!!values.cluster === !!values['all-clusters']) {
    throw new RancherError(`give either --cluster NAME or --all-clusters (usage: ${ RANCHER_USAGE })`);
  }
  if (values['ca-file'] && values.insecure) {
    throw new RancherError('give --ca-file or --insecure, not both');
  }
  if (positionals.length) {
    throw new RancherError(`reads from Rancher or from files, not both (${ positionals.join(' ') })`);
  }
  const conn = connect({
    server: values.server as string, tokenFile: values['token-file'] as string, caFile: values['ca-file'] as string | undefined, insecure: !!values.insecure
  }, readFile);
  const dispatch = rancherDispatch(conn);

  return values['all-clusters'] ? diagnoseAllClusters(dispatch, conn.origin) : diagnoseCluster(dispatch, values.cluster as string, conn.origin);
}
