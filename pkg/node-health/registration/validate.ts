/**
 * Checks the options of a registration command before it is shown. Each problem names the field, the
 * rule that failed and, where one exists, a value that would pass; its text lives under
 * nodeHealth.registration.validation.<code> in both locales.
 */
import { hasControlCharacter } from '../engine/shell-quote';
import {
  checkLabelValue, checkQualifiedName, checkSubdomain, suggestSubdomain,
  DNS_LABEL_MAX, LABEL_VALUE_MAX
} from './syntax';
import type { ProblemField, RegistrationOptions, ValidationProblem } from './types';
import { TAINT_EFFECTS } from './types';
import {
  LABELS, ROLE_ORDER, isHostname, isIPv4, isIPv6
} from '../engine';
import type { MessageArgs, Role } from '../engine';

export const VALIDATION_KEY_PREFIX = 'nodeHealth.registration.validation';

/** Every problem code; each has a text under VALIDATION_KEY_PREFIX in both locales. */
export const VALIDATION_CODES = [
  'controlCharacter', 'osUnknown', 'roleUnknown', 'rolesEmpty', 'windowsWorkerOnly',
  'nodeNameUpperCase', 'nodeNameEmpty', 'nodeNameSpace', 'nodeNameCharacter', 'nodeNameTooLong', 'nodeNameEmptyPart',
  'nodeNameEdge', 'nodeNamePartTooLong', 'nodeNameTooLongForLabel',
  'addressEmptyEntry', 'addressSpace', 'addressInvalid',
  'labelFormat', 'labelKeyEmpty', 'labelKeyPrefix', 'labelKeyNameTooLong', 'labelKeyName', 'labelValueTooLong', 'labelValue',
  'labelReserved', 'labelDuplicate',
  'taintFormat', 'taintKeyEmpty', 'taintKeyPrefix', 'taintKeyNameTooLong', 'taintKeyName', 'taintValueTooLong', 'taintValue',
  'taintEffect', 'taintDuplicate',
  'proxySpace', 'proxyScheme', 'proxyInvalid', 'proxyPath',
  'noProxySpace', 'noProxyEmptyEntry', 'noProxyEntry',
] as const;
export type ValidationCode = typeof VALIDATION_CODES[number];

const KEY_CODES = {
  labels: {
    empty: 'labelKeyEmpty', prefix: 'labelKeyPrefix', nameTooLong: 'labelKeyNameTooLong', name: 'labelKeyName', valueTooLong: 'labelValueTooLong', value: 'labelValue'
  },
  taints: {
    empty: 'taintKeyEmpty', prefix: 'taintKeyPrefix', nameTooLong: 'taintKeyNameTooLong', name: 'taintKeyName', valueTooLong: 'taintValueTooLong', value: 'taintValue'
  },
} as const;

function problem(
  field: ProblemField, code: ValidationCode, args: MessageArgs = {}, extra: { severity?: 'error' | 'warning', index?: number } = {}
): ValidationProblem {
  const out: ValidationProblem = {
    field, code, messageKey: `${ VALIDATION_KEY_PREFIX }.${ code }`, args, severity: extra.severity ?? 'error'
  };

  if (extra.index !== undefined) {
    out.index = extra.index;
  }

  return out;
}

function present(value: string | undefined): value is string {
  return typeof value === 'string' && value !== '';
}

function validateRoles(options: RegistrationOptions): ValidationProblem[] {
  const roles: unknown[] = Array.isArray(options.roles) ? options.roles : [];
  const problems: ValidationProblem[] = [];

  for (const role of roles) {
    if (!ROLE_ORDER.includes(role as Role)) {
      problems.push(problem('roles', 'roleUnknown', { role: String(role), allowed: ROLE_ORDER.join(', ') }));
    }
  }
  if (options.os === 'windows') {
    const other = roles.filter((role) => role !== 'worker' && ROLE_ORDER.includes(role as Role));

    if (other.length) {
      problems.push(problem('roles', 'windowsWorkerOnly', { roles: other.join(', ') }));
    }
  } else if (!roles.some((role) => ROLE_ORDER.includes(role as Role))) {
    problems.push(problem('roles', 'rolesEmpty'));
  }

  return problems;
}

/** The name the command will register: the given node name, else an upper-case host name, lower-cased. */
export function effectiveNodeName(options: Pick<RegistrationOptions, 'nodeName' | 'hostname'>): string | undefined {
  if (present(options.nodeName)) {
    return options.nodeName.toLowerCase();
  }
  if (present(options.hostname) && options.hostname !== options.hostname.toLowerCase()) {
    return options.hostname.toLowerCase();
  }

  return undefined;
}

function validateNodeName(field: 'nodeName' | 'hostname', value: string): ValidationProblem[] {
  if (hasControlCharacter(value)) {
    return [problem(field, 'controlCharacter')];
  }
  const problems: ValidationProblem[] = [];
  const lower = value.toLowerCase();
  const suggestion = suggestSubdomain(value);
  const withSuggestion = (args: MessageArgs): MessageArgs => (suggestion && suggestion !== lower ? { ...args, suggestion } : args);

  if (lower !== value) {
    // Not an error: the command lower-cases the name, which is what kubelet registers anyway.
    problems.push(problem(field, 'nodeNameUpperCase', { value, lower }, { severity: 'warning' }));
  }
  const failure = checkSubdomain(lower);

  if (failure) {
    switch (failure.rule) {
    case 'empty':
      problems.push(problem(field, 'nodeNameEmpty'));
      break;
    case 'character':
      problems.push(problem(field, failure.char === ' ' ? 'nodeNameSpace' : 'nodeNameCharacter', withSuggestion({ value, char: failure.char })));
      break;
    case 'tooLong':
      problems.push(problem(field, 'nodeNameTooLong', {
        value, length: failure.length, max: 253
      }));
      break;
    case 'emptyPart':
      problems.push(problem(field, 'nodeNameEmptyPart', withSuggestion({ value })));
      break;
    case 'partEdge':
      problems.push(problem(field, 'nodeNameEdge', withSuggestion({ value, part: failure.part })));
      break;
    case 'partTooLong':
      problems.push(problem(field, 'nodeNamePartTooLong', {
        value, part: failure.part, length: failure.length, max: DNS_LABEL_MAX
      }));
      break;
    }
  } else if (lower.length > LABEL_VALUE_MAX) {
    problems.push(problem(field, 'nodeNameTooLongForLabel', {
      value, length: lower.length, max: LABEL_VALUE_MAX, label: LABELS.nodeName
    }));
  }

  return problems;
}

function validateAddresses(field: 'address' | 'internalAddress', value: string): ValidationProblem[] {
  if (hasControlCharacter(value)) {
    return [problem(field, 'controlCharacter')];
  }
  const problems: ValidationProblem[] = [];

  for (const entry of value.split(',')) {
    if (entry === '') {
      problems.push(problem(field, 'addressEmptyEntry', { value }));
    } else if (/\s/.test(entry)) {
      problems.push(problem(field, 'addressSpace', { value: entry }));
    } else if (!isIPv4(entry) && !isIPv6(entry) && !isHostname(entry)) {
      problems.push(problem(field, 'addressInvalid', { value: entry }));
    }
  }

  return problems;
}

function keyProblem(field: 'labels' | 'taints', key: string, index: number): ValidationProblem | null {
  const failure = checkQualifiedName(key);
  const codes = KEY_CODES[field];

  if (!failure) {
    return null;
  }
  switch (failure.rule) {
  case 'empty':
    return problem(field, codes.empty, {}, { index });
  case 'prefix':
    return problem(field, codes.prefix, { key, prefix: failure.prefix }, { index });
  case 'nameTooLong':
    return problem(field, codes.nameTooLong, {
      key, name: failure.name, length: failure.length, max: DNS_LABEL_MAX
    }, { index });
  default:
    return problem(field, codes.name, { key, name: failure.name }, { index });
  }
}

function valueProblem(field: 'labels' | 'taints', key: string, value: string, index: number): ValidationProblem | null {
  const failure = checkLabelValue(value);
  const codes = KEY_CODES[field];

  if (!failure) {
    return null;
  }

  return failure.rule === 'tooLong' ? problem(field, codes.valueTooLong, {
    key, value, length: failure.length, max: LABEL_VALUE_MAX
  }, { index }) : problem(field, codes.value, { key, value }, { index });
}

function validateLabels(labels: unknown[]): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const seen = new Map<string, number>();

  labels.forEach((raw, index) => {
    const label = String(raw);

    if (hasControlCharacter(label)) {
      problems.push(problem('labels', 'controlCharacter', {}, { index }));

      return;
    }
    const eq = label.indexOf('=');

    if (eq < 0) {
      problems.push(problem('labels', 'labelFormat', { label }, { index }));

      return;
    }
    const key = label.slice(0, eq);
    const value = label.slice(eq + 1);
    const found = keyProblem('labels', key, index) || valueProblem('labels', key, value, index);

    if (found) {
      problems.push(found);

      return;
    }
    if (key === LABELS.os) {
      problems.push(problem('labels', 'labelReserved', { key }, { index }));

      return;
    }
    if (seen.has(key)) {
      problems.push(problem('labels', 'labelDuplicate', { key }, { index }));
    }
    seen.set(key, index);
  });

  return problems;
}

function validateTaints(taints: unknown[]): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const seen = new Set<string>();

  taints.forEach((raw, index) => {
    const taint = String(raw);

    if (hasControlCharacter(taint)) {
      problems.push(problem('taints', 'controlCharacter', {}, { index }));

      return;
    }
    // Rancher splits on exactly one '=' and one ':' and silently drops anything else (pkg/taints).
    const match = /^([^=:]*)=([^=:]*):([^=:]*)$/.exec(taint);

    if (!match) {
      problems.push(problem('taints', 'taintFormat', { taint }, { index }));

      return;
    }
    const [, key, value, effect] = match;
    const found = keyProblem('taints', key, index) || valueProblem('taints', key, value, index);

    if (found) {
      problems.push(found);

      return;
    }
    if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) {
      problems.push(problem('taints', 'taintEffect', {
        taint, effect, allowed: TAINT_EFFECTS.join(', ')
      }, { index }));

      return;
    }
    if (seen.has(`${ key }:${ effect }`)) {
      problems.push(problem('taints', 'taintDuplicate', { key, effect }, { index }));
    }
    seen.add(`${ key }:${ effect }`);
  });

  return problems;
}

function validateProxy(field: 'httpProxy' | 'httpsProxy', value: string): ValidationProblem[] {
  if (hasControlCharacter(value)) {
    return [problem(field, 'controlCharacter')];
  }
  if (/\s/.test(value)) {
    return [problem(field, 'proxySpace', { value })];
  }
  if (!/^https?:\/\//i.test(value)) {
    return [problem(field, 'proxyScheme', { value })];
  }
  let url: URL;

  try {
    url = new URL(value);
  } catch {
    return [problem(field, 'proxyInvalid', { value })];
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');

  if (!host || (!isIPv4(host) && !isIPv6(host) && !isHostname(host))) {
    return [problem(field, 'proxyInvalid', { value })];
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    return [problem(field, 'proxyPath', { value })];
  }

  return [];
}

function validateNoProxy(value: string): ValidationProblem[] {
  if (hasControlCharacter(value)) {
    return [problem('noProxy', 'controlCharacter')];
  }
  if (/\s/.test(value)) {
    return [problem('noProxy', 'noProxySpace', { value })];
  }
  const problems: ValidationProblem[] = [];

  for (const entry of value.split(',')) {
    if (entry === '') {
      problems.push(problem('noProxy', 'noProxyEmptyEntry', { value }));
    } else if (!isNoProxyEntry(entry)) {
      problems.push(problem('noProxy', 'noProxyEntry', { entry }));
    }
  }

  return problems;
}

/** `*`, a host or `.domain` (optionally with :port), an IP address or a CIDR range. */
function isNoProxyEntry(entry: string): boolean {
  if (entry === '*') {
    return true;
  }
  const cidr = /^(.+)\/([0-9]{1,3})$/.exec(entry);

  if (cidr) {
    const bits = Number(cidr[2]);

    return (isIPv4(cidr[1]) && bits <= 32) || (isIPv6(cidr[1]) && bits <= 128);
  }
  if (isIPv6(entry) || isIPv6(entry.replace(/^\[|\](:[0-9]{1,5})?$/g, ''))) {
    return true;
  }
  const host = entry.replace(/:[0-9]{1,5}$/, '').replace(/^\*?\./, '');

  return isIPv4(host) || isHostname(host);
}

/** All problems of a set of options; an empty list (or only warnings) means the command can be built. */
export function validateRegistrationOptions(options: RegistrationOptions): ValidationProblem[] {
  const problems: ValidationProblem[] = [];

  if (options.os !== 'linux' && options.os !== 'windows') {
    problems.push(problem('os', 'osUnknown', { os: String(options.os) }));
  }
  problems.push(...validateRoles(options));
  if (present(options.nodeName)) {
    problems.push(...validateNodeName('nodeName', options.nodeName));
  } else if (present(options.hostname) && effectiveNodeName(options) !== undefined) {
    problems.push(...validateNodeName('hostname', options.hostname));
  }
  if (present(options.address)) {
    problems.push(...validateAddresses('address', options.address));
  }
  if (present(options.internalAddress)) {
    problems.push(...validateAddresses('internalAddress', options.internalAddress));
  }
  problems.push(...validateLabels(Array.isArray(options.labels) ? options.labels : []));
  problems.push(...validateTaints(Array.isArray(options.taints) ? options.taints : []));
  if (present(options.httpProxy)) {
    problems.push(...validateProxy('httpProxy', options.httpProxy));
  }
  if (present(options.httpsProxy)) {
    problems.push(...validateProxy('httpsProxy', options.httpsProxy));
  }
  if (present(options.noProxy)) {
    problems.push(...validateNoProxy(options.noProxy));
  }

  return problems;
}

export function hasErrors(problems: ValidationProblem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
