/**
 * Types of the registration command builder. Pure TypeScript (no Vue, store or Node.js imports) so the
 * Registration dialog and the `node-health register-command` CLI produce byte-identical commands.
 */
import type { MessageArgs, Role } from '../engine';

export type TargetOs = 'linux' | 'windows';

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
export type TaintEffect = typeof TAINT_EFFECTS[number];

export interface RegistrationOptions {
  os: TargetOs;
  roles: Role[];
  nodeName?: string;
  /**
   * The host's own name (a Windows COMPUTERNAME, a Node name). Used only when no nodeName is given and
   * it has upper case letters: the command then names the node explicitly in lower case, because
   * Kubernetes lower-cases it and Rancher's expectation must match what kubelet registers.
   */
  hostname?: string;
  /** One address or a comma-separated list (dual stack), as Rancher's Registration tab accepts */
  address?: string;
  internalAddress?: string;
  /** `key=value` */
  labels: string[];
  /** `key=value:Effect` */
  taints: string[];
  insecure: boolean;
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/** An environment variable the command sets for the installer (cluster agent env vars, proxies). */
export interface EnvVar {
  name: string;
  value: string;
}

/** What the builder needs from a ClusterRegistrationToken, read by readRegistrationToken. */
export interface RegistrationToken {
  /** Rancher's server-url without a trailing slash, e.g. https://rancher.example.com */
  serverUrl: string;
  token: string;
  /** sha256 of Rancher's CA certificates (64 hex digits); absent when Rancher uses a public CA */
  caChecksum?: string;
  /** Agent environment variables of the cluster (spec.agentEnvVars) that Rancher put in front of its command */
  agentEnv: EnvVar[];
  clusterId?: string;
  name?: string;
  /** Whether Rancher offers the insecure (curl --insecure) variant */
  insecureAvailable: boolean;
  /** Whether Rancher offers a Windows command (RKE2 clusters only) */
  windowsAvailable: boolean;
}

export type ProblemField =
  | 'os'
  | 'roles'
  | 'nodeName'
  | 'hostname'
  | 'address'
  | 'internalAddress'
  | 'labels'
  | 'taints'
  | 'httpProxy'
  | 'httpsProxy'
  | 'noProxy';

export interface ValidationProblem {
  field: ProblemField;
  /** Stable identifier, also the last part of messageKey */
  code: string;
  /** `nodeHealth.registration.validation.<code>` */
  messageKey: string;
  args: MessageArgs;
  /** 'warning' problems do not stop the command from being built (e.g. a name the command lower-cases) */
  severity: 'error' | 'warning';
  /** Position in labels / taints, for list fields */
  index?: number;
}

export interface TokenReadError {
  code: string;
  /** `nodeHealth.registration.token.error.<code>` */
  messageKey: string;
  args: MessageArgs;
}

export interface BuiltCommand {
  /** The command with the real token, for the clipboard */
  command: string;
  /** The same command with the token (and proxy passwords) masked, for the screen */
  maskedCommand: string;
  /** The node name the command registers, after lower-casing; absent when the installer picks the host name */
  nodeName?: string;
}
