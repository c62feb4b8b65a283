/**
 * Rules that need the node's host: what only the host's files and logs show (failure-families.md,
 * host-side signatures), read from the host report joined to the record. Without a host report they stay
 * silent. Their evidence names the host and is marked confirmed.
 *
 * HOST_CONFIRMATIONS lets any rule be confirmed by host facts: keyed by rule id, each entry looks at the
 * rule's hit and the host report and, when the host shows the same cause, gives the host's evidence and a
 * sentence saying what it showed. The diagnosis applies them after the rule has fired, so a rule's own
 * check never depends on a host report being there.
 */
import type { Evidence, NodeRecord } from '../types';
import type { MessageArgs } from '../vocabulary';
import type { HostReport, HostSignature, HostSignatureId } from '../host-report';
import { findSignature, hostLabel } from '../host-report';
import { parseTime } from '../fields';
import {
  Rule, RuleContext, RuleHit, acting, step
} from './rule';
import { CONNECTION_INFO_PATH } from './shared';

export interface HostConfirmation {
  evidence: Evidence[];
  key: string;
  args: MessageArgs;
}

export type HostConfirm = (r: NodeRecord, hit: RuleHit, host: HostReport, ctx: RuleContext) => HostConfirmation | null;

export function hostEvidence(host: HostReport, path: string, value: Evidence['value']): Evidence {
  return {
    object: hostLabel(host), path, value, confirmed: true
  };
}

function signatureEvidence(host: HostReport, s: HostSignature): Evidence[] {
  const path = `signatures[${ s.id }]`;

  return [
    hostEvidence(host, `${ path }.count`, s.count),
    hostEvidence(host, `${ path }.first`, s.first),
    hostEvidence(host, `${ path }.last`, s.last),
    hostEvidence(host, `${ path }.sample`, s.sample),
  ];
}

function agentEvidence(host: HostReport): Evidence[] {
  const a = host.agent;

  if (!a) {
    return [];
  }

  return [
    hostEvidence(host, `services[${ a.name }].state`, [a.state, a.subState].filter(Boolean).join('/') || null),
    ...(a.restarts !== null ? [hostEvidence(host, `services[${ a.name }].restarts`, a.restarts)] : []),
    ...(a.since ? [hostEvidence(host, `services[${ a.name }].since`, a.since)] : []),
  ];
}

/** systemd says active/running; Windows' service manager says running. */
function agentRunning(host: HostReport): boolean {
  const a = host.agent;

  return !!a && ((a.state === 'active' && (a.subState === 'running' || a.subState === null)) || (a.state === 'running' && a.subState === null));
}

function windows(r: NodeRecord, host: HostReport): boolean {
  return host.os === 'windows' || r.os === 'windows';
}

function restartAgentCommand(r: NodeRecord, host: HostReport): string {
  return windows(r, host) ? 'Restart-Service rancher-wins' : 'sudo systemctl restart rancher-system-agent';
}

/** The plan is waiting for this host's agent: a log line about the agent then says why. */
function planWaits(r: NodeRecord): boolean {
  return !!r.objects.machine && r.plan.state !== 'in-sync' && r.plan.state !== 'no-plan';
}

/** When the earliest of these signatures was first logged, else when the report was made. */
function firstSeen(found: HostSignature[], host: HostReport): string | null {
  return found.map((s) => s.first).filter((t): t is string => !!t).sort()[0] ?? host.collectedAt;
}

function hostName(host: HostReport): string {
  return host.hostname ?? host.connectionInfo.secretName ?? '?';
}

/** A rule that reads the host report: silent where none is joined to the record. Its check gets the rule's id for its steps. */
function hostRule(id: string, explains: readonly string[], check: (r: NodeRecord, host: HostReport, id: string) => RuleHit | null): Rule {
  return {
    id, severity: 'error', explains, needs: [], check: (r) => (r.hostReport ? check(r, r.hostReport, id) : null),
  };
}

/** What waits behind an agent that cannot reach or trust Rancher. */
const AGENT_CUT_OFF = ['agent-never-checked-in', 'plan-not-applied', 'waiting-for-node-ref', 'blocking-cluster-operation', 'stuck-deleting'];

export const connectionInfoBroken = hostRule('connection-info-broken', AGENT_CUT_OFF, (r, host, id) => {
  const ci = host.connectionInfo;
  const eof = findSignature(host, 'connection-info-eof');
  const fileBroken = ci.present === false || ci.size === 0 || ci.parses === false;

  if (!fileBroken && !(eof && !agentRunning(host) && planWaits(r))) {
    return null;
  }
  const file = ci.path ?? CONNECTION_INFO_PATH[windows(r, host) ? 'windows' : 'linux'];

  return {
    args:     { file, host: hostName(host) },
    evidence: [
      hostEvidence(host, 'connectionInfo.present', ci.present),
      hostEvidence(host, 'connectionInfo.size', ci.size),
      hostEvidence(host, 'connectionInfo.parses', ci.parses),
      ...(eof ? signatureEvidence(host, eof) : []),
      ...agentEvidence(host),
    ],
    fix: [
      step(id, 'rancherReady', {}, 'kubectl -n cattle-system get pods -l app=rancher'),
      acting('re-register', step(id, 'reRegister', { file })),
      step(id, 'restartAgent', {}, restartAgentCommand(r, host)),
    ],
    since:   eof?.first ?? host.agent?.since ?? host.collectedAt,
    actions: ['re-register'],
  };
});

export const agentCaUntrusted = hostRule('agent-ca-untrusted', AGENT_CUT_OFF, (r, host, id) => {
  const found = [findSignature(host, 'ca-untrusted-fatal'), findSignature(host, 'ca-strict-no-root')].filter((s): s is HostSignature => !!s);

  // A fatal line from before the agent recovered is history: it counts while the agent is down or the plan waits.
  if (found.length === 0 || (agentRunning(host) && !planWaits(r))) {
    return null;
  }

  return {
    args:     { host: hostName(host), server: host.connectionInfo.server ?? '?' },
    evidence: [...found.flatMap((s) => signatureEvidence(host, s)), ...agentEvidence(host)],
    fix:      [
      step(id, 'compareCa', { server: host.connectionInfo.server ?? '?' }, `kubectl get settings.management.cattle.io cacerts -o jsonpath='{.value}'`),
      step(id, 'tlsMode', {}, `kubectl get settings.management.cattle.io agent-tls-mode -o jsonpath='{.value}'`),
      acting('re-register', step(id, 'reRegister')),
    ],
    since:   firstSeen(found, host),
    actions: ['re-register'],
  };
});

const STALE_WATCH: HostSignatureId[] = ['secret-too-old', 'secret-older-than-last'];

export const agentWatchStale = hostRule('agent-watch-stale', ['plan-not-applied', 'blocking-cluster-operation'], (r, host, id) => {
  const found = STALE_WATCH.map((id) => findSignature(host, id)).filter((s): s is HostSignature => !!s);

  // Once the plan is applied the watch has caught up: the lines are history.
  if (found.length === 0 || !planWaits(r)) {
    return null;
  }

  return {
    args:     { host: hostName(host) },
    evidence: [...found.flatMap((s) => signatureEvidence(host, s)), ...agentEvidence(host)],
    fix:      [
      step(id, 'restart', {}, restartAgentCommand(r, host)),
      step(id, 'everyNode'),
    ],
    since:   firstSeen(found, host),
    actions: [],
  };
});

export const HOST_RULES: readonly Rule[] = [connectionInfoBroken, agentCaUntrusted, agentWatchStale];

const CONTROL_PLANE_CERTIFICATES = ['kube-controller-manager', 'kube-scheduler'];

/** The serving certificates of kube-controller-manager and kube-scheduler that had expired at the diagnosis time. */
function expiredCertificates(host: HostReport, ctx: RuleContext, concerns: (name: string) => boolean): HostConfirmation | null {
  const expired = host.certificates.filter((c) => CONTROL_PLANE_CERTIFICATES.includes(c.name) && concerns(c.name) && (parseTime(c.notAfter) ?? Infinity) <= ctx.now);

  if (expired.length === 0) {
    return null;
  }

  return {
    evidence: expired.map((c) => hostEvidence(host, `certificates[${ c.name }].notAfter`, c.notAfter)),
    key:      'nodeHealth.confirmed.certificatesExpired',
    args:     {
      host: hostName(host), certificates: expired.map((c) => c.name).join(', '), notAfter: expired.map((c) => c.notAfter ?? '?').sort()[0]
    },
  };
}

function nodePasswordRejected(host: HostReport): HostConfirmation | null {
  const s = findSignature(host, 'node-password-rejected');

  return s ? {
    evidence: signatureEvidence(host, s),
    key:      'nodeHealth.confirmed.nodePassword',
    args:     {
      host: hostName(host), count: s.count, last: s.last ?? '?'
    },
  } : null;
}

export const HOST_CONFIRMATIONS: Readonly<Record<string, HostConfirm>> = {
  // Seed 000: the agent's log says its credentials are refused.
  'agent-never-checked-in': (r, _hit, host) => {
    const s = findSignature(host, 'agent-credentials');

    if (!s) {
      return null;
    }
    const served = host.connectionInfo.secretName;
    const other = served && served !== r.host.planSecretName;

    return {
      evidence: [
        ...signatureEvidence(host, s),
        ...agentEvidence(host),
        ...(other ? [hostEvidence(host, 'connectionInfo.secretName', served)] : []),
      ],
      key:  other ? 'nodeHealth.confirmed.agentCredentialsOtherSecret' : 'nodeHealth.confirmed.agentCredentials',
      args: {
        host: hostName(host), count: s.count, last: s.last ?? '?', secret: served ?? '?'
      },
    };
  },

  // The host calls itself in upper case; Kubernetes registered the lower-cased name.
  'node-name-mismatch': (_r, hit, host) => {
    const expected = String(hit.args?.expected ?? '').toLowerCase();
    const name = [host.nodeName.value, host.hostname].find((n) => !!n && n.toLowerCase() === expected && n !== n.toLowerCase());

    if (!expected || !name) {
      return null;
    }

    return {
      evidence: [
        hostEvidence(host, 'hostname', host.hostname),
        ...(host.nodeName.value ? [hostEvidence(host, `nodeName (${ host.nodeName.source ?? '?' })`, host.nodeName.value)] : []),
      ],
      key:  'nodeHealth.confirmed.hostName',
      args: {
        host: hostName(host), name, lower: name.toLowerCase()
      },
    };
  },

  // rancher#41125: only kube-controller-manager and kube-scheduler fail, and their serving certificates expired.
  'probes-failing':        (r, _hit, host, ctx) => expiredCertificates(host, ctx, (name) => r.plan.unhealthyProbes.includes(name)),
  'serving-certs-expired': (_r, _hit, host, ctx) => expiredCertificates(host, ctx, () => true),

  // system-agent's applyinator logs "error executing instruction N" when a command of the plan fails, never for the
  // periodic ones: the host shows the agent running the plan and failing.
  'plan-apply-failed': (_r, _hit, host) => {
    const s = findSignature(host, 'plan-instruction-failed');

    return s ? {
      evidence: [...signatureEvidence(host, s), ...agentEvidence(host)],
      key:      'nodeHealth.confirmed.planInstructionFailed',
      args:     {
        host: hostName(host), count: s.count, last: s.last ?? '?'
      },
    } : null;
  },

  // rke2#1916: kubelet never registers because the server rejects this host's node password.
  'waiting-for-node-ref': (_r, _hit, host) => nodePasswordRejected(host),
  'duplicate-node-name':  (_r, _hit, host) => nodePasswordRejected(host),
};
