/**
 * Builds the Linux and Windows registration commands the way Rancher's Registration tab does
 * (dashboard shell/edit/provisioning.cattle.io.cluster/CustomCommand.vue), from the parts of the
 * cluster's registration token, with every value quoted for the shell it is pasted into.
 *
 * Where this differs from Rancher on purpose:
 * - values are quoted instead of stripped of unusual characters, so what is shown is what is registered;
 * - on Windows, user labels and taints go into the one `-Label` / `-Taint` argument, comma-separated:
 *   wins-agent-install.ps1 declares them as single strings (and splits CATTLE_LABELS on ','), and
 *   PowerShell refuses a parameter given twice;
 * - the node name is lower-cased (Kubernetes registers it so) and, on Windows, also set as
 *   $env:CATTLE_NODE_NAME, the variable the Windows installer reads;
 * - proxies are passed like Rancher passes a cluster's agent env vars: in front of curl (so the
 *   download uses them) and after sudo (so the installer sees them and writes them into
 *   rancher-system-agent.env); in PowerShell as `$env:NAME='value';` before curl.exe.
 */
import { quotePosix, quotePowerShell } from '../engine/shell-quote';
import { effectiveNodeName } from './validate';
import type { BuiltCommand, EnvVar, RegistrationOptions, RegistrationToken } from './types';
import { LABELS, ROLE_ORDER } from '../engine';

export {
  validateRegistrationOptions, hasErrors, effectiveNodeName
} from './validate';

export const TOKEN_MASK = '••••••••';
export const LINUX_INSTALL_PATH = '/system-agent-install.sh';
export const WINDOWS_INSTALL_PATH = '/wins-agent-install.ps1';

const ROLE_FLAGS: Record<string, string> = {
  etcd: '--etcd', controlplane: '--controlplane', worker: '--worker'
};

/** Hides the password of a URL such as http://user:secret@proxy:3128 (proxy values often carry one). */
export function maskUrlPassword(value: string): string {
  return value.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/@:]*:)[^/@]*@/, `$1${ TOKEN_MASK }@`);
}

function present(value: string | undefined): value is string {
  return typeof value === 'string' && value !== '';
}

/** The cluster's agent env vars, then the proxies asked for; an explicit proxy replaces the cluster's. */
function environment(token: RegistrationToken, options: RegistrationOptions): EnvVar[] {
  const proxies: EnvVar[] = [];

  if (present(options.httpProxy)) {
    proxies.push({ name: 'HTTP_PROXY', value: options.httpProxy });
  }
  if (present(options.httpsProxy)) {
    proxies.push({ name: 'HTTPS_PROXY', value: options.httpsProxy });
  }
  if (present(options.noProxy)) {
    proxies.push({ name: 'NO_PROXY', value: options.noProxy });
  }
  const replaced = new Set(proxies.map((p) => p.name));
  const agentEnv = (Array.isArray(token.agentEnv) ? token.agentEnv : []).filter((e) => !replaced.has(e.name.toUpperCase()));

  return [...agentEnv, ...proxies];
}

/** Env var names are written unquoted, so only plain names are ever emitted. */
function safeEnv(env: EnvVar[]): EnvVar[] {
  return env.filter((e) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(e.name));
}

interface Parts {
  server: string;
  token: string;
  caChecksum?: string;
  env: EnvVar[];
  nodeName?: string;
}

function selectedRoles(options: RegistrationOptions): string[] {
  const roles: unknown[] = Array.isArray(options.roles) ? options.roles : [];

  return ROLE_ORDER.filter((role) => roles.includes(role));
}

function list(values: unknown): string[] {
  return Array.isArray(values) ? values.map(String).filter((v) => v !== '') : [];
}

function linuxCommand(parts: Parts, options: RegistrationOptions): string {
  const q = quotePosix;
  const env = parts.env.map((e) => `${ e.name }=${ q(e.value) }`);
  const words = [
    ...env, 'curl', ...(options.insecure ? ['--insecure'] : []), '-fL', q(parts.server + LINUX_INSTALL_PATH),
    '|', 'sudo', ...env, 'sh', '-s', '-',
    '--server', q(parts.server), '--label', q(`${ LABELS.os }=linux`), '--token', q(parts.token),
  ];

  if (parts.caChecksum) {
    words.push('--ca-checksum', q(parts.caChecksum));
  }
  words.push(...selectedRoles(options).map((role) => ROLE_FLAGS[role]));
  if (present(options.address)) {
    words.push('--address', q(options.address));
  }
  if (present(options.internalAddress)) {
    words.push('--internal-address', q(options.internalAddress));
  }
  if (parts.nodeName) {
    words.push('--node-name', q(parts.nodeName));
  }
  for (const label of list(options.labels)) {
    words.push('--label', q(label));
  }
  for (const taint of list(options.taints)) {
    words.push('--taints', q(taint));
  }

  return words.join(' ');
}

function windowsCommand(parts: Parts, options: RegistrationOptions): string {
  const q = quotePowerShell;
  const env = [...parts.env];

  if (parts.nodeName) {
    env.push({ name: 'CATTLE_NODE_NAME', value: parts.nodeName });
  }
  const words = [
    ...env.map((e) => `$env:${ e.name }=${ q(e.value) };`),
    'curl.exe', ...(options.insecure ? ['--insecure'] : []), '-fL', q(parts.server + WINDOWS_INSTALL_PATH), '-o', 'install.ps1;',
    'Set-ExecutionPolicy', 'Bypass', '-Scope', 'Process', '-Force;',
    './install.ps1', '-Server', q(parts.server), '-Label', q([`${ LABELS.os }=windows`, ...list(options.labels)].join(',')),
    '-Token', q(parts.token), '-Worker',
  ];

  if (parts.caChecksum) {
    words.push('-CaChecksum', q(parts.caChecksum));
  }
  if (present(options.address)) {
    words.push('-Address', q(options.address));
  }
  if (present(options.internalAddress)) {
    words.push('-InternalAddress', q(options.internalAddress));
  }
  if (parts.nodeName) {
    words.push('-NodeName', q(parts.nodeName));
  }
  const taints = list(options.taints);

  if (taints.length) {
    words.push('-Taint', q(taints.join(',')));
  }

  return words.join(' ');
}

/**
 * The registration command for `options`. Validate first (validateRegistrationOptions): the builder
 * does not judge the values, it only guarantees that each stays one literal argument.
 */
export function buildRegistrationCommand(token: RegistrationToken, options: RegistrationOptions): BuiltCommand {
  const server = token.serverUrl.replace(/\/+$/, '');
  const env = safeEnv(environment(token, options));
  const nodeName = effectiveNodeName(options);
  const real: Parts = {
    server, token: token.token, caChecksum: token.caChecksum, env, nodeName
  };
  const masked: Parts = {
    ...real,
    token: TOKEN_MASK,
    env:   env.map((e) => ({ name: e.name, value: maskUrlPassword(e.value) }))
  };
  const render = options.os === 'windows' ? windowsCommand : linuxCommand;
  const out: BuiltCommand = { command: render(real, options), maskedCommand: render(masked, options) };

  if (nodeName) {
    out.nodeName = nodeName;
  }

  return out;
}
