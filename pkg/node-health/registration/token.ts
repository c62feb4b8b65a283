/**
 * Reads what the builder needs (server URL, token, CA checksum, the cluster's agent env vars) from a
 * ClusterRegistrationToken in any shape it reaches us: Norman's flat /v3/clusterregistrationtokens object
 * or collection, the Kubernetes / Steve object with the fields under `status`, or a kubectl List that may
 * also carry the token's Secret (Rancher 2.14+ keeps the token in a Secret and the commands hold `{token}`).
 *
 * Rancher writes the Linux command as
 *   `<env> curl -fL <server>/system-agent-install.sh | sudo <env> sh -s - --server <server> --label 'cattle.io/os=linux' --token <token>[ --ca-checksum <sha256>]`
 * and the Windows one as
 *   `<$env:X="v";> curl.exe -fL <server>/wins-agent-install.ps1 -o install.ps1; ...; ./install.ps1 -Server <server> -Label 'cattle.io/os=windows' -Token <token> -Worker[ -CaChecksum <sha256>]`
 * (rancher pkg/controllers/dashboard/clusterregistrationtoken). The values are read by splitting the
 * command into words, not by position, so extra spaces or quoting do not matter.
 */
import {
  asObject, decodeBase64, isHostname, isIPv4, isIPv6
} from '../engine';
import type { MessageArgs } from '../engine';
import type { EnvVar, RegistrationToken, TokenReadError } from './types';

export const TOKEN_ERROR_KEY_PREFIX = 'nodeHealth.registration.token.error';
export const TOKEN_PLACEHOLDER = '{token}';
export const DEFAULT_TOKEN_NAME = 'default-token';

/** Every reason a token cannot be read; each has a text under TOKEN_ERROR_KEY_PREFIX in both locales. */
export const TOKEN_ERROR_CODES = [
  'noTokens', 'notAToken', 'clusterNotFound', 'ambiguousCluster', 'nodeCommandMissing', 'nodeCommandUnrecognised',
  'serverMissing', 'serverInvalid', 'tokenInSecret', 'tokenMissing', 'tokenInvalid', 'caChecksumInvalid',
] as const;
export type TokenErrorCode = typeof TOKEN_ERROR_CODES[number];

const TOKEN_TYPES = ['clusterRegistrationToken', 'clusterregistrationtoken', 'management.cattle.io.clusterregistrationtoken'];
const COMMAND_FIELDS = ['nodeCommand', 'insecureNodeCommand', 'windowsNodeCommand', 'insecureWindowsNodeCommand', 'command', 'insecureCommand', 'manifestUrl'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CA_CHECKSUM = /^[0-9a-fA-F]{64}$/;

type Obj = Record<string, any>;

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function fail(code: TokenErrorCode, args: MessageArgs = {}): { error: TokenReadError } {
  return {
    error: {
      code, messageKey: `${ TOKEN_ERROR_KEY_PREFIX }.${ code }`, args
    }
  };
}

/** The fields of one token, whichever shape it came in. */
interface TokenFields {
  name: string;
  clusterId: string;
  namespace: string;
  nodeCommand: string;
  insecureNodeCommand: string;
  windowsNodeCommand: string;
  insecureWindowsNodeCommand: string;
  manifestUrl: string;
  token: string;
  tokenSecretName: string;
}

function isTokenObject(obj: Obj): boolean {
  const status = asObject(obj.status);

  return TOKEN_TYPES.includes(str(obj.type)) ||
    str(obj.kind) === 'ClusterRegistrationToken' ||
    COMMAND_FIELDS.some((field) => typeof obj[field] === 'string' || typeof status[field] === 'string');
}

function fieldsOf(obj: Obj): TokenFields {
  const metadata = asObject(obj.metadata);
  const spec = asObject(obj.spec);
  const status = asObject(obj.status);
  // Kubernetes and Steve objects keep the commands under status; Norman flattens them.
  const source = [...COMMAND_FIELDS, 'token', 'tokenSecretName'].some((field) => typeof status[field] === 'string') ? status : obj;
  const idName = str(obj.id).includes(':') ? str(obj.id).split(':').pop() as string : '';

  return {
    name:                       str(metadata.name) || str(obj.name) || idName,
    clusterId:                  str(obj.clusterId) || str(spec.clusterName) || str(metadata.namespace),
    namespace:                  str(metadata.namespace) || str(obj.namespaceId) || str(obj.clusterId) || str(spec.clusterName),
    nodeCommand:                str(source.nodeCommand).trim(),
    insecureNodeCommand:        str(source.insecureNodeCommand).trim(),
    windowsNodeCommand:         str(source.windowsNodeCommand).trim(),
    insecureWindowsNodeCommand: str(source.insecureWindowsNodeCommand).trim(),
    manifestUrl:                str(source.manifestUrl).trim(),
    token:                      str(source.token).trim(),
    tokenSecretName:            str(source.tokenSecretName) || str(obj.tokenSecretName),
  };
}

function itemsOf(input: unknown): unknown[] {
  if (Array.isArray(input)) {
    return input;
  }
  const obj = asObject(input);

  if (Array.isArray(obj.data) && (str(obj.type) === 'collection' || !isTokenObject(obj))) {
    return obj.data;
  }
  if (Array.isArray(obj.items) && (str(obj.kind).endsWith('List') || !isTokenObject(obj))) {
    return obj.items;
  }

  return [input];
}

function isSecret(obj: Obj): boolean {
  return str(obj.kind) === 'Secret' || str(obj.type) === 'secret';
}

function tokenFromSecret(items: unknown[], fields: TokenFields): string {
  for (const item of items) {
    const obj = asObject(item);
    const metadata = asObject(obj.metadata);

    if (isSecret(obj) && str(metadata.name) === fields.tokenSecretName &&
        (!metadata.namespace || !fields.namespace || metadata.namespace === fields.namespace)) {
      const data = asObject(obj.data);
      const stringData = asObject(obj.stringData);

      return str(stringData.token) || decodeBase64(str(data.token)) || '';
    }
  }

  return '';
}

/**
 * Splits a command line into words the way the shell would (enough for Rancher's commands): quotes are
 * removed, `;` and `|` outside quotes are words of their own.
 */
export function splitCommandWords(command: string, dialect: 'posix' | 'powershell'): string[] {
  const words: string[] = [];
  const escape = dialect === 'posix' ? '\\' : '`';
  const singleQuotes = dialect === 'posix' ? ['\''] : ['\'', '\u2018', '\u2019', '\u201A', '\u201B'];
  let word: string | null = null;
  let i = 0;

  const push = () => {
    if (word !== null) {
      words.push(word);
      word = null;
    }
  };

  while (i < command.length) {
    const c = command[i];

    if (/\s/.test(c)) {
      push();
      i++;
    } else if (c === ';' || c === '|') {
      push();
      words.push(c);
      i++;
    } else if (singleQuotes.includes(c)) {
      word = word ?? '';
      i++;
      while (i < command.length) {
        if (singleQuotes.includes(command[i])) {
          if (dialect === 'powershell' && singleQuotes.includes(command[i + 1] ?? '')) {
            word += command[i + 1];
            i += 2;
            continue;
          }
          i++;
          break;
        }
        word += command[i++];
      }
    } else if (c === '"') {
      word = word ?? '';
      i++;
      while (i < command.length && command[i] !== '"') {
        if (command[i] === escape && i + 1 < command.length) {
          i++;
        }
        word += command[i++];
      }
      i++;
    } else if (c === escape && i + 1 < command.length) {
      word = (word ?? '') + command[i + 1];
      i += 2;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  push();

  return words;
}

function flagValue(words: string[], ...flags: string[]): string {
  const lowerFlags = flags.map((f) => f.toLowerCase());

  for (let i = 0; i < words.length - 1; i++) {
    if (lowerFlags.includes(words[i].toLowerCase())) {
      return words[i + 1];
    }
  }

  return '';
}

function envFromPosix(words: string[]): EnvVar[] {
  // The variables after sudo are the ones the installer sees; Rancher writes the same ones before curl.
  const sudo = words.indexOf('sudo');
  const start = sudo >= 0 ? sudo + 1 : 0;
  const env: EnvVar[] = [];

  for (let i = start; i < words.length; i++) {
    const eq = words[i].indexOf('=');

    if (eq <= 0 || !ENV_NAME.test(words[i].slice(0, eq))) {
      break;
    }
    env.push({ name: words[i].slice(0, eq), value: words[i].slice(eq + 1) });
  }

  return env;
}

function envFromPowerShell(words: string[]): EnvVar[] {
  const env: EnvVar[] = [];

  for (const word of words) {
    if (word === ';') {
      continue;
    }
    const match = /^\$env:([^=]+)=(.*)$/is.exec(word);

    if (!match || !ENV_NAME.test(match[1])) {
      break;
    }
    env.push({ name: match[1], value: match[2] });
  }

  return env;
}

function installUrl(words: string[], curl: string): string {
  const at = words.findIndex((w) => w.toLowerCase() === curl);

  if (at < 0) {
    return '';
  }

  return words.slice(at + 1).find((w) => /^https?:\/\//i.test(w)) ?? '';
}

/**
 * Rancher's server-url as its commands carry it: scheme, host and optional port (Rancher strips the
 * path). Anything else is refused because the value ends up as a URL that curl.exe is given.
 */
export function normaliseServerUrl(value: string): string | null {
  const match = /^(https?):\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?\/*$/.exec(value);

  if (!match) {
    return null;
  }
  const host = match[2].startsWith('[') ? match[2].slice(1, -1) : match[2];

  if (!isIPv4(host) && !isIPv6(host) && !isHostname(host)) {
    return null;
  }

  return `${ match[1].toLowerCase() }://${ match[2] }${ match[3] ?? '' }`;
}

function parseToken(fields: TokenFields, items: unknown[]): RegistrationToken | { error: TokenReadError } {
  const linuxCommand = fields.nodeCommand || fields.insecureNodeCommand;

  if (!linuxCommand) {
    return fail('nodeCommandMissing', { name: fields.name || '?', cluster: fields.clusterId || '?' });
  }
  if (/\bdocker\s+run\b/.test(linuxCommand) || !linuxCommand.includes('system-agent-install.sh')) {
    return fail('nodeCommandUnrecognised', { name: fields.name || '?' });
  }
  const linuxWords = splitCommandWords(linuxCommand, 'posix');
  const windowsCommand = fields.windowsNodeCommand || fields.insecureWindowsNodeCommand;
  const windowsWords = windowsCommand ? splitCommandWords(windowsCommand, 'powershell') : [];

  const rawServer = flagValue(linuxWords, '--server') || flagValue(windowsWords, '-Server') ||
    installUrl(linuxWords, 'curl').replace(/\/system-agent-install\.sh$/, '');

  if (!rawServer) {
    return fail('serverMissing', { name: fields.name || '?' });
  }
  const serverUrl = normaliseServerUrl(rawServer);

  if (!serverUrl) {
    return fail('serverInvalid', { value: rawServer });
  }

  const commandToken = flagValue(linuxWords, '--token') || flagValue(windowsWords, '-Token');
  let token = [fields.token, commandToken].find((t) => t && t !== TOKEN_PLACEHOLDER) ?? '';

  if (!token && fields.tokenSecretName) {
    token = tokenFromSecret(items, fields).trim();
    if (!token) {
      return fail('tokenInSecret', { secret: fields.tokenSecretName, namespace: fields.namespace || '?' });
    }
  }
  if (!token) {
    return fail('tokenMissing', { name: fields.name || '?' });
  }
  if (!/^[\x21-\x7e]+$/.test(token)) {
    return fail('tokenInvalid', {});
  }

  const caChecksum = flagValue(linuxWords, '--ca-checksum') || flagValue(windowsWords, '-CaChecksum');

  if (caChecksum && !CA_CHECKSUM.test(caChecksum)) {
    return fail('caChecksumInvalid', { value: caChecksum });
  }

  const agentEnv = envFromPosix(linuxWords);

  if (!agentEnv.length && windowsWords.length) {
    agentEnv.push(...envFromPowerShell(windowsWords));
  }

  const out: RegistrationToken = {
    serverUrl,
    token,
    agentEnv,
    insecureAvailable: !!(fields.insecureNodeCommand || fields.insecureWindowsNodeCommand),
    windowsAvailable:  !!windowsCommand,
  };

  if (caChecksum) {
    out.caChecksum = caChecksum.toLowerCase();
  }
  if (fields.clusterId) {
    out.clusterId = fields.clusterId;
  }
  if (fields.name) {
    out.name = fields.name;
  }

  return out;
}

export interface ReadTokenOptions {
  /** Management cluster id (c-m-xxxx) to pick from a collection holding several clusters' tokens */
  clusterId?: string;
}

export function isTokenError(value: RegistrationToken | { error: TokenReadError }): value is { error: TokenReadError } {
  return 'error' in value;
}

/**
 * The registration token in `input`, or an error saying why none could be read. From a collection it
 * takes the cluster's token named default-token (the one Rancher creates and its UI shows), else the
 * first one that carries a node command.
 */
export function readRegistrationToken(input: unknown, options: ReadTokenOptions = {}): RegistrationToken | { error: TokenReadError } {
  const items = itemsOf(input);
  let tokens = items.map(asObject).filter((obj) => !isSecret(obj) && isTokenObject(obj)).map(fieldsOf);

  if (!tokens.length) {
    return fail(items.length ? 'notAToken' : 'noTokens');
  }
  if (options.clusterId) {
    const all = tokens;

    tokens = tokens.filter((t) => t.clusterId === options.clusterId);
    if (!tokens.length) {
      return fail('clusterNotFound', {
        cluster:   options.clusterId,
        available: [...new Set(all.map((t) => t.clusterId || '?'))].join(', ')
      });
    }
  }
  const clusters = [...new Set(tokens.map((t) => t.clusterId))];

  if (clusters.length > 1) {
    return fail('ambiguousCluster', { clusters: clusters.map((c) => c || '?').join(', ') });
  }
  const chosen = tokens.find((t) => t.name === DEFAULT_TOKEN_NAME && (t.nodeCommand || t.insecureNodeCommand)) ??
    tokens.find((t) => t.nodeCommand || t.insecureNodeCommand) ??
    tokens[0];

  return parseToken(chosen, items);
}
