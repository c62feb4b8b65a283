/**
 * An in-browser record of the guarded actions: who did what to which object, when, and how it ended.
 * Kept per cluster in sessionStorage when the browser offers it, so it survives a reload of the page
 * (and goes with the tab), else in memory. The diagnostics export includes it.
 *
 * It never holds a secret: entries are built from a fixed set of fields, the detail is one short line,
 * and anything in it that looks like a token or a registration command is replaced before it is kept.
 */
import { ACTION_LOG_NAMES } from './catalogue';
import type { ActionLogName } from './catalogue';
import type { ActionResult } from './types';

export interface ActionLogEntry {
  /** RFC3339 */
  at: string;
  user: string;
  cluster: string;
  action: ActionLogName;
  /** e.g. "Machine fleet-default/custom-1" */
  target: string;
  result: ActionResult;
  detail?: string;
}

export type ActionLogInput = Omit<ActionLogEntry, 'at'> & { at?: string };

export const ACTION_LOG_LIMIT = 200;
export const ACTION_LOG_STORAGE_PREFIX = 'nodeHealth.actionLog.v1:';
const MAX_FIELD = 300;
const REDACTED = '[redacted]';

const RESULTS: ActionResult[] = ['succeeded', 'failed', 'already-gone', 'conflict', 'cancelled'];

const memory = new Map<string, ActionLogEntry[]>();
const listeners = new Set<(clusterId: string) => void>();

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function sessionStore(): StorageLike | null {
  try {
    const storage = (globalThis as { sessionStorage?: StorageLike }).sessionStorage;

    return storage && typeof storage.getItem === 'function' ? storage : null;
  } catch {
    // Browsers that block storage (privacy settings, sandboxed frames) throw on access.
    return null;
  }
}

/** Removes what could be a secret: token flags and their values, long token-like words, install commands. */
export function scrubDetail(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');

  if (/system-agent-install\.sh|wins-agent-install\.ps1|install\.ps1/i.test(flat)) {
    return REDACTED;
  }
  const scrubbed = flat
    .replace(/(--token|-token|--ca-checksum|-cachecksum)(\s+|=)\S+/gi, `$1$2${ REDACTED }`)
    .replace(/\b(token|password|secret)(\s*[=:]\s*)\S+/gi, `$1$2${ REDACTED }`)
    // Registration tokens are 54 lower-case alphanumerics; bearer tokens and checksums are long too.
    // Dots are left out so that long host names (split by dots) stay readable.
    .replace(/[A-Za-z0-9+/_-]{40,}={0,2}/g, REDACTED)
    // Credentials inside URLs (proxy settings)
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^@\s/]*@/gi, `$1${ REDACTED }@`);

  return scrubbed.length > MAX_FIELD ? `${ scrubbed.slice(0, MAX_FIELD) }…` : scrubbed;
}

function field(value: unknown): string {
  const text = typeof value === 'string' ? value.replace(/[\r\n\t]+/g, ' ') : String(value ?? '');

  return text.length > MAX_FIELD ? `${ text.slice(0, MAX_FIELD) }…` : text;
}

function validTime(value: string | undefined): string {
  return value && !Number.isNaN(Date.parse(value)) ? new Date(Date.parse(value)).toISOString() : new Date().toISOString();
}

function read(clusterId: string): ActionLogEntry[] {
  const storage = sessionStore();

  if (storage) {
    try {
      const parsed = JSON.parse(storage.getItem(ACTION_LOG_STORAGE_PREFIX + clusterId) ?? '[]');

      return Array.isArray(parsed) ? parsed.filter((e) => e && typeof e === 'object' && typeof e.at === 'string') : [];
    } catch {
      return [];
    }
  }

  return memory.get(clusterId) ?? [];
}

function write(clusterId: string, entries: ActionLogEntry[]): void {
  const storage = sessionStore();

  if (storage) {
    try {
      storage.setItem(ACTION_LOG_STORAGE_PREFIX + clusterId, JSON.stringify(entries));

      return;
    } catch {
      // Quota exceeded or storage blocked: keep the log for this page at least.
    }
  }
  memory.set(clusterId, entries);
}

/** Adds an entry (oldest entries drop out beyond the limit) and returns what was kept. */
export function recordAction(input: ActionLogInput): ActionLogEntry {
  if (!ACTION_LOG_NAMES.includes(input.action)) {
    throw new Error(`unknown action ${ String(input.action) }`);
  }
  if (!RESULTS.includes(input.result)) {
    throw new Error(`unknown result ${ String(input.result) }`);
  }
  const cluster = field(input.cluster) || '-';
  const entry: ActionLogEntry = {
    at:     validTime(input.at),
    user:   field(input.user) || '-',
    cluster,
    action: input.action,
    target: field(input.target),
    result: input.result,
  };

  if (typeof input.detail === 'string' && input.detail.trim()) {
    entry.detail = scrubDetail(input.detail.trim());
  }
  const entries = [...read(cluster), entry].slice(-ACTION_LOG_LIMIT);

  write(cluster, entries);
  listeners.forEach((listener) => listener(cluster));

  return entry;
}

/** The cluster's entries, oldest first. */
export function getActionLog(clusterId: string): ActionLogEntry[] {
  return read(clusterId).map((e) => ({ ...e }));
}

export function clearActionLog(clusterId: string): void {
  const storage = sessionStore();

  if (storage) {
    try {
      storage.removeItem(ACTION_LOG_STORAGE_PREFIX + clusterId);
    } catch {}
  }
  memory.delete(clusterId);
  listeners.forEach((listener) => listener(clusterId));
}

/** Lets a view refresh when an entry is added or the log is cleared; returns the unsubscribe function. */
export function onActionLogChange(listener: (clusterId: string) => void): () => void {
  listeners.add(listener);

  return () => {
    listeners.delete(listener);
  };
}

/** A dialog closed before it wrote anything. */
export function logCancelled(context: { user: string; clusterId: string }, action: ActionLogName, target: string): ActionLogEntry {
  return recordAction({
    user: context.user, cluster: context.clusterId, action, target, result: 'cancelled'
  });
}
