/**
 * Request context and response helpers shared by the API flavours. Errors are rendered the way each
 * API renders them: Kubernetes `Status` objects, Steve's and Norman's `{type: "error"}`.
 */
import type { IncomingMessage, ServerResponse } from 'http';
import { createHash } from 'crypto';
import { gzip } from 'zlib';
import type { TrafficMeter } from './traffic';
import { ApiError } from './store';
import type { MockUser } from './users';

export type Flavour = 'steve' | 'kube' | 'norman' | 'plain';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: URL;
  path: string;
  query: URLSearchParams;
  /** scheme://host as the browser sees the server (the dev proxy passes the original host on) */
  baseUrl: string;
  user?: MockUser;
  body?: unknown;
  rawBody: string;
  flavour: Flavour;
  status?: number;
  /** counts what is sent, for the benchmark */
  traffic?: TrafficMeter;
}

export function baseUrlOf(req: IncomingMessage): string {
  const forwardedHost = req.headers['x-api-host'] || req.headers['x-forwarded-host'];
  const host = (Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost) || req.headers.host || '127.0.0.1';
  const proto = req.headers['x-forwarded-proto'] || ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');

  return `${ Array.isArray(proto) ? proto[0] : proto }://${ host }`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];

  return Array.isArray(value) ? value[0] : value;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** JSON and its structured forms (json-patch+json, merge-patch+json): a simple (CORS-exempt) request cannot send them */
const JSON_CONTENT_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;
/** Headers a browser sends cross-site only after a CORS preflight, which this server never grants */
const NON_SIMPLE_HEADERS = ['x-api-csrf', 'x-mock-user', 'x-requested-with'];

/**
 * Another web page open in the same browser can send requests here (a form or a `text/plain` fetch needs no
 * CORS preflight) and, with nobody named, they would run as the default user. Writes and every /mock control
 * call are refused unless they come from this server's own origin (the dev server's proxy passes the
 * browser's host as x-api-host / x-forwarded-host) and, for a POST, carry a JSON body type or a header a
 * simple request cannot send.
 */
export function refuseCrossSite(req: IncomingMessage, method: string, control: boolean): void {
  if (SAFE_METHODS.has(method) && !control) {
    return;
  }
  const origin = header(req, 'origin');

  if (origin !== undefined) {
    let originHost: string | null = null;

    try {
      originHost = origin === 'null' ? null : new URL(origin).host;
    } catch {
      originHost = null;
    }
    const hosts = [header(req, 'host'), header(req, 'x-api-host'), header(req, 'x-forwarded-host')].filter((h): h is string => !!h);

    if (!originHost || !hosts.includes(originHost)) {
      throw new ApiError(403, 'Forbidden', `cross-origin request refused (Origin ${ origin })`);
    }
  }
  const site = header(req, 'sec-fetch-site');

  if (site === 'cross-site' || site === 'same-site') {
    throw new ApiError(403, 'Forbidden', `cross-origin request refused (Sec-Fetch-Site ${ site })`);
  }
  // PUT, PATCH and DELETE need a preflight from another origin; POST is the one write a simple request can make.
  if (method !== 'POST') {
    return;
  }
  if (!JSON_CONTENT_TYPE.test(header(req, 'content-type') || '') && !NON_SIMPLE_HEADERS.some((h) => header(req, h) !== undefined)) {
    throw new ApiError(415, 'UnsupportedMediaType', `a ${ method } needs a JSON body (content-type application/json) or one of the headers ${ NON_SIMPLE_HEADERS.join(', ') }`);
  }
}

export async function readBody(req: IncomingMessage, limitBytes = 20 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;

  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) {
      throw new ApiError(413, 'RequestEntityTooLarge', 'request body too large');
    }
    chunks.push(chunk as Buffer);
  }

  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonBody(raw: string): unknown {
  if (!raw.trim()) {
    return undefined;
  }
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new ApiError(400, 'BadRequest', `the request body is not valid JSON: ${ (e as Error).message }`);
  }
}

export function sendJson(ctx: RequestContext, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  sendRawJson(ctx, status, JSON.stringify(body), headers);
}

/** Smaller bodies are not worth compressing. */
const GZIP_MIN_BYTES = 1024;

function acceptsGzip(req: IncomingMessage): boolean {
  const accepted = req.headers['accept-encoding'];

  return (Array.isArray(accepted) ? accepted.join(',') : accepted || '').includes('gzip');
}

/**
 * A body that is already JSON text. Gzip-compressed when the client accepts it, as Rancher's API writer
 * (rancher/apiserver GzipWriter, Steve's JSON writer) does: a list of thousands of objects is tens of
 * megabytes of JSON and a tenth of that compressed. Compression runs off the event loop.
 */
export function sendRawJson(ctx: RequestContext, status: number, text: string | Buffer, headers: Record<string, string | string[]> = {}): void {
  const body = typeof text === 'string' ? Buffer.from(text) : text;
  const compress = body.length >= GZIP_MIN_BYTES && acceptsGzip(ctx.req);
  const path = ctx.req.url || ctx.path;

  ctx.status = status;
  ctx.res.writeHead(status, {
    'content-type':      'application/json',
    'cache-control':     'no-cache, no-store, must-revalidate',
    'x-api-cattle-auth': ctx.user ? 'true' : 'false',
    ...(compress ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}),
    ...headers,
  });
  if (!compress) {
    ctx.traffic?.record('http', path, body.length);
    ctx.res.end(body);

    return;
  }
  compressed(body, (err, zipped) => {
    if (!ctx.res.writableEnded) {
      // The headers already promise gzip: a failure to compress can only drop the connection.
      if (err || !zipped) {
        ctx.res.destroy(err ?? undefined);
      } else {
        ctx.traffic?.record('http', path, body.length, zipped.length);
        ctx.res.end(zipped);
      }
    }
  });
}

/**
 * Compressed bodies by content digest, newest last. The dashboard and the tab ask for the same big lists
 * again and again (every poll, every visit), and compressing a 2,000-object list costs this process tens
 * to hundreds of milliseconds; a digest of it costs a few. Real Rancher runs on its own machine, this
 * stand-in shares one with the browser, so time spent here would be charged to whatever the browser is
 * measuring.
 */
const gzipCache = new Map<string, Buffer>();
const GZIP_CACHE_MAX_BYTES = 64 * 1024 * 1024;
let gzipCacheBytes = 0;

function compressed(body: Buffer, done: (err: Error | null, zipped?: Buffer) => void): void {
  const key = createHash('sha1').update(body).digest('base64');
  const hit = gzipCache.get(key);

  if (hit) {
    gzipCache.delete(key);
    gzipCache.set(key, hit);
    done(null, hit);

    return;
  }
  gzip(body, (err, zipped) => {
    if (!err) {
      remember(key, zipped);
    }
    done(err, zipped);
  });
}

function remember(key: string, zipped: Buffer): void {
  if (zipped.length > GZIP_CACHE_MAX_BYTES || gzipCache.has(key)) {
    return;
  }
  gzipCache.set(key, zipped);
  gzipCacheBytes += zipped.length;
  for (const [oldKey, old] of gzipCache) {
    if (gzipCacheBytes <= GZIP_CACHE_MAX_BYTES) {
      break;
    }
    gzipCache.delete(oldKey);
    gzipCacheBytes -= old.length;
  }
}

const STEVE_CODES: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed', 409: 'Conflict', 410: 'Gone', 413: 'RequestEntityTooLarge', 422: 'Invalid', 500: 'ServerError', 503: 'ServiceUnavailable',
};

export function kubeStatus(err: ApiError): Record<string, unknown> {
  return {
    kind:       'Status',
    apiVersion: 'v1',
    metadata:   {},
    status:     'Failure',
    message:    err.message,
    reason:     err.reason,
    ...(err.details ? { details: err.details } : {}),
    code:       err.status,
  };
}

export function sendError(ctx: RequestContext, err: unknown): void {
  const e = err instanceof ApiError ? err : new ApiError(500, 'InternalError', `internal error: ${ (err as Error)?.message || err }`);

  if (!(err instanceof ApiError)) {
    console.error('[mock-rancher] unexpected error', ctx.method, ctx.path, err); // eslint-disable-line no-console
  }
  if (ctx.res.headersSent) {
    ctx.res.end();

    return;
  }
  switch (ctx.flavour) {
  case 'kube':
    sendJson(ctx, e.status, kubeStatus(e));
    break;
  case 'norman':
    sendJson(ctx, e.status, {
      type: 'error', baseType: 'error', status: e.status, code: e.reason || STEVE_CODES[e.status], message: e.message
    });
    break;
  default:
    sendJson(ctx, e.status, {
      type: 'error', links: {}, code: e.reason || STEVE_CODES[e.status] || 'ServerError', message: e.message, status: e.status, ...(e.details ? { details: e.details } : {})
    });
  }
}

export function forbidden(user: MockUser, verb: string, info: { resource: string, group: string }, name?: string, namespace?: string): ApiError {
  const what = info.group ? `${ info.resource }.${ info.group }` : info.resource;
  const subject = name ? `${ what } "${ name }"` : what;
  const where = namespace ? ` in the namespace "${ namespace }"` : (info.resource === 'namespaces' ? '' : ' at the cluster scope');

  return new ApiError(403, 'Forbidden',
    `${ subject } is forbidden: User "${ user.id }" cannot ${ verb } resource "${ info.resource }" in API group "${ info.group }"${ where }`,
    {
      name, group: info.group, kind: info.resource
    });
}

export function methodNotAllowed(method: string, path: string): ApiError {
  return new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource (${ method } ${ path })`);
}
