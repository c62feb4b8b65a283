/**
 * The embedded API's users and what each may do. Who is asking is decided per request, first match wins:
 *   1. header `X-Mock-User: <name>` (scripts, curl, browser tests through extraHTTPHeaders)
 *   2. cookie `R_MOCK_USER=<name>` (set by logging in on the dashboard's login page, any password)
 *   3. the server's default user (`--user` / MOCK_RANCHER_USER, `admin` unless changed)
 * After "Log out" the cookie holds `logged-out` and every API call answers 401 until the next login.
 */

import type { KubeObject } from '../scenarios/types';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

export const READ_VERBS: readonly Verb[] = ['get', 'list', 'watch'];
export const WRITE_VERBS: readonly Verb[] = ['create', 'update', 'patch', 'delete'];

export interface MockUser {
  /** login name: what X-Mock-User, R_MOCK_USER and the login form take */
  username: string;
  /** Norman user id */
  id: string;
  displayName: string;
  description: string;
  /** whether the user may use `verb` on objects of Steve type `type` (somewhere: the type's schema is theirs) */
  can(verb: Verb, type: string): boolean;
  /**
   * Types the user may read only in part, as a Role granting some objects by name does; for those, `visible` says
   * which objects. Steve lists only these and answers 200: the list says nothing of the others.
   */
  partialTypes?: readonly string[];
  visible?(type: string, obj: KubeObject): boolean;
}

/** The plan secrets of server machines (etcd or control plane): what a Role naming them by resourceNames grants. */
function serverPlanSecret(obj: KubeObject): boolean {
  const labels = obj.metadata.labels ?? {};

  return labels['rke.cattle.io/etcd-role'] === 'true' || labels['rke.cattle.io/control-plane-role'] === 'true';
}

/** Types every logged-in user may write, whatever their role: their own preferences. */
const SELF_SERVICE_TYPES = new Set(['userpreference']);

/**
 * A registration token lets whoever holds it join a node to the cluster, control plane and etcd included: as in
 * Rancher, only those who may change clusters may list or create them, and a user who writes nothing gets none.
 */
export const REGISTRATION_TOKEN_TYPE = 'management.cattle.io.clusterregistrationtoken';

/** What a user who writes nothing may do: read everything but registration tokens, and keep their preferences. */
function readsOnly(verb: Verb, type: string): boolean {
  return (READ_VERBS.includes(verb) && type !== REGISTRATION_TOKEN_TYPE) || SELF_SERVICE_TYPES.has(type);
}

/** What the `no-events` user may not read: Events (both API groups) and pods, their logs with them. */
const EVENT_AND_POD_TYPES = new Set(['event', 'events.k8s.io.event', 'pod']);

export const USERS: readonly MockUser[] = [
  {
    username:    'admin',
    id:          'user-admin',
    displayName: 'Default Admin',
    description: 'administrator: reads and writes everything',
    can:         () => true,
  },
  {
    username:    'read-only',
    id:          'user-readonly',
    displayName: 'Read-Only User',
    description: 'reads everything (secrets too) but registration tokens, writes nothing: objects carry no update/remove links',
    can:         readsOnly,
  },
  {
    username:    'no-secrets',
    id:          'user-nosecrets',
    displayName: 'Cluster Member Without Secrets',
    description: 'reads and writes everything except secrets, whose schema is hidden: lists and gets of secrets answer 404',
    can:         (verb, type) => type !== 'secret',
  },
  {
    username:     'fleet-member',
    id:           'user-fleetmember',
    displayName:  'Fleet Workspace Member',
    description:  'reads everything but registration tokens, writes nothing; of the secrets only the plan secrets of server (etcd, control plane) machines, granted by name: secret lists are partial',
    can:          readsOnly,
    partialTypes: ['secret'],
    visible:      (type, obj) => type !== 'secret' || serverPlanSecret(obj),
  },
  {
    username:    'no-events',
    id:          'user-noevents',
    displayName: 'Member Without Events or Pods',
    description: 'reads everything but Events, pods (and so their logs) and registration tokens, writes nothing: those schemas are hidden',
    can:         (verb, type) => readsOnly(verb, type) && !EVENT_AND_POD_TYPES.has(type),
  },
];

/** Who a request is before logging in: Rancher answers its settings to anyone (the login page needs them). */
export const ANONYMOUS: MockUser = {
  username:    'anonymous',
  id:          'anonymous',
  displayName: 'Not logged in',
  description: 'reads settings only',
  can:         (verb, type) => (verb === 'get' || verb === 'list') && type === 'management.cattle.io.setting',
};

export const LOGGED_OUT = 'logged-out';
export const USER_HEADER = 'x-mock-user';
export const USER_COOKIE = 'R_MOCK_USER';

export function findUser(name: string | undefined): MockUser | undefined {
  return USERS.find((u) => u.username === name);
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};

  for (const part of (header || '').split(';')) {
    const eq = part.indexOf('=');

    if (eq > 0) {
      const raw = part.slice(eq + 1).trim();

      try {
        out[part.slice(0, eq).trim()] = decodeURIComponent(raw);
      } catch {
        // Another application's cookie on the same host may hold anything; it is not ours to read.
        out[part.slice(0, eq).trim()] = raw;
      }
    }
  }

  return out;
}

export type Identity = { user: MockUser } | { user: undefined, reason: 'logged-out' | 'unknown-user' | 'bad-token', name: string };

/** The secret part of every API token the embedded Rancher accepts. */
export const API_TOKEN_SECRET = 'node-health-mock';

/** A user's API token, as Rancher's are shaped (`token-<id>:<secret>`), for `Authorization: Bearer`. */
export function apiTokenFor(username: string): string {
  return `token-${ username }:${ API_TOKEN_SECRET }`;
}

function userOfToken(authorization: string | undefined): Identity | null {
  const bearer = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;

  if (!authorization) {
    return null;
  }
  const m = bearer ? /^token-([a-z-]+):(.+)$/.exec(bearer[1]) : null;
  const user = m && m[2] === API_TOKEN_SECRET ? findUser(m[1]) : undefined;

  return user ? { user } : {
    user: undefined, reason: 'bad-token', name: 'the API token'
  };
}

export function identify(headers: Record<string, string | string[] | undefined>, defaultUser: string): Identity {
  // An API token (the command line's) decides alone: a wrong one is never taken for the default user.
  const auth = headers.authorization;
  const byToken = userOfToken(Array.isArray(auth) ? auth[0] : auth);

  if (byToken) {
    return byToken;
  }
  const header = headers[USER_HEADER];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const fromCookie = parseCookies(headers.cookie as string | undefined)[USER_COOKIE];
  const name = fromHeader || fromCookie || defaultUser;

  if (name === LOGGED_OUT) {
    return {
      user: undefined, reason: 'logged-out', name
    };
  }
  const user = findUser(name);

  return user ? { user } : {
    user: undefined, reason: 'unknown-user', name
  };
}
