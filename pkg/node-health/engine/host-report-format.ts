/**
 * The shape of a host report (node-health-host/v1) and of its match to a record. Records carry reports, so the
 * shape sits apart from the reading (host-report.ts), which needs the records' types.
 */
export const HOST_REPORT_FORMAT = 'node-health-host/v1';

/** Log signatures the host check knows (failure-families.md, host-side signatures). */
export const HOST_SIGNATURES = [
  'agent-credentials', 'connection-info-eof', 'ca-untrusted-fatal', 'ca-strict-no-root', 'secret-too-old', 'secret-older-than-last',
  'node-password-rejected', 'server-not-ready', 'plan-instruction-failed',
] as const;

export type HostSignatureId = typeof HOST_SIGNATURES[number];

export interface HostService {
  name: string;
  /** false: not installed (systemd's not-found); null: could not tell */
  loaded: boolean | null;
  state: string | null;
  subState: string | null;
  restarts: number | null;
  since: string | null;
}

export interface HostSignature {
  id: HostSignatureId;
  source: 'agent' | 'distro';
  count: number;
  first: string | null;
  last: string | null;
  /** One matching line, with credentials redacted on the host */
  sample: string | null;
}

export interface HostCertificate {
  name: string;
  path: string | null;
  notAfter: string | null;
}

export interface HostReport {
  format: typeof HOST_REPORT_FORMAT;
  os: 'linux' | 'windows' | 'unknown';
  collectedAt: string | null;
  hostname: string | null;
  nodeName: { value: string | null; source: string | null };
  /** the agent's id (/etc/rancher/agent/cattle-id), which the Machine's rke.cattle.io/machine-id label holds */
  machineId: string | null;
  distro: string | null;
  agent: HostService | null;
  distroServices: HostService[];
  connectionInfo: {
    path: string | null;
    present: boolean | null;
    size: number | null;
    parses: boolean | null;
    secretName: string | null;
    namespace: string | null;
    server: string | null;
  };
  logs: { agent: { read: boolean; lines: number | null }; distro: { read: boolean; lines: number | null } };
  signatures: HostSignature[];
  certificates: HostCertificate[];
  clock: { checked: boolean; reason: string | null; server: string | null; serverDate: string | null; offsetSeconds: number | null };
  disk: { path: string | null; present: boolean | null; freeBytes: number | null; totalBytes: number | null };
  missingTools: string[];
  notes: string[];
}

/** How a report found its record, or why it found none. */
export interface HostReportMatch {
  report: HostReport;
  /** the record's key, or null when no record matches */
  record: string | null;
  by: 'plan-secret' | 'machine-id' | null;
}
