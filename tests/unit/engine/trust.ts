/**
 * What the trust tests hold the engine to, written from the raw objects rather than from the engine's own
 * helpers: whether Rancher or Cluster API reports a record's machine or Node as not ready past the thresholds,
 * and whether a finding's cause says a value is absent that its evidence shows.
 */
import type { DiagnosisReport, EngineConfig, Finding, NodeRecord } from '@pkg/node-health/engine';
import type { Translate } from '@pkg/node-health/report/translate';

/** Reads a value the way Kubernetes tools print it: strings as they are, numbers and booleans as text. */
function text(v: unknown): string | null {
  return typeof v === 'string' ? v : (typeof v === 'number' || typeof v === 'boolean' ? String(v) : null);
}

function obj(v: unknown): Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, any> : {};
}

function list(v: unknown): any[] {
  return Array.isArray(v) ? v : [];
}

/** The condition of a type from the top-level list first, then the v1beta1/v1beta2 copies. */
function condition(o: Record<string, any>, type: string): Record<string, any> | null {
  const status = obj(o.status);
  const lists = [status.conditions, obj(obj(status.deprecated).v1beta1).conditions, obj(status.v1beta2).conditions];

  for (const l of lists) {
    const c = list(l).find((x) => x !== null && typeof x === 'object' && x.type === type && typeof x.type === 'string');

    if (c) {
      return c;
    }
  }

  return null;
}

/** Past the threshold, or since a time nobody can read. */
function lasted(nowMs: number, since: unknown, thresholdMs: number): boolean {
  const t = Date.parse(text(since) ?? '');

  return Number.isNaN(t) || nowMs - t >= thresholdMs;
}

/**
 * Why Rancher or Cluster API says this record is not ready, or its Node's Ready is a status nothing has written past
 * the threshold, or null when none of it holds.
 */
export function rancherSaysNotReady(r: NodeRecord, nowMs: number, config: EngineConfig): string | null {
  const m = r.objects.machine;
  const status = m ? obj(m.status) : {};

  if (m && !text(obj(m.metadata).deletionTimestamp) && Object.keys(status).length > 0) {
    const created = obj(m.metadata).creationTimestamp;
    const old = lasted(nowMs, created, config.nodeStartupTimeoutMs);
    const phase = text(status.phase);

    if (phase !== null && phase !== 'Running' && old) {
      return `phase ${ phase }`;
    }
    for (const type of ['Ready', 'NodeHealthy', 'NodeReady', 'InfrastructureReady', 'BootstrapReady', 'BootstrapConfigReady']) {
      const c = condition(m, type);

      if (c && c.status !== 'True' && lasted(nowMs, text(c.lastTransitionTime) ?? text(c.lastUpdateTime) ?? created, config.nodeStartupTimeoutMs)) {
        return `${ type } ${ String(c.status) }`;
      }
    }
    if (!text(obj(status.nodeRef).name) && old) {
      return 'no nodeRef';
    }
  }
  const n = r.objects.node;
  const ready = n ? condition(n, 'Ready') : null;

  if (ready && ready.status !== 'True' && lasted(nowMs, text(ready.lastTransitionTime) ?? text(ready.lastUpdateTime), config.nodeNotReadyTimeoutMs)) {
    return `Node Ready ${ String(ready.status) }`;
  }
  // A Ready nothing has written past the threshold is no word of the kubelet's now (Rancher's copy keeps no heartbeat).
  const beat = Date.parse(text(ready?.lastHeartbeatTime) ?? '');

  if (n && ready?.status === 'True' && !Number.isNaN(beat) && nowMs - beat >= config.nodeStatusStaleMs &&
    !obj(obj(n.metadata).annotations)['node-health.cattle.io/copied-from-management-node']) {
    return 'Node Ready from a stale status';
  }

  return null;
}

/**
 * Whether Cluster API says it cannot see the machine's Node because it cannot reach the cluster (NodeHealthy or
 * NodeReady Unknown ConnectionDown, in any list): an unknown of the connection, which the cluster's finding carries.
 */
function connectionDown(r: NodeRecord): boolean {
  const status = obj(r.objects.machine?.status);
  const lists = [status.conditions, obj(obj(status.deprecated).v1beta1).conditions, obj(status.v1beta2).conditions];

  return lists.some((l) => list(l).some((c) => obj(c).reason === 'ConnectionDown' && ['NodeHealthy', 'NodeReady'].includes(obj(c).type)));
}

/**
 * Records Rancher calls not ready that the diagnosis calls healthy or leaves without a finding. A machine Cluster API
 * cannot see for a lost connection is not silent when its cluster says so and the record points there.
 */
export function silentNotReady(report: DiagnosisReport, config: EngineConfig): string[] {
  const nowMs = Date.parse(report.now);

  return report.records.flatMap((r) => {
    const why = rancherSaysNotReady(r, nowMs, config);
    const pointed = connectionDown(r) && !!r.cluster?.findings.some((f) => f.rule === 'capi-connection-down') &&
      r.notes.some((n) => n.key === 'nodeHealth.notes.partOf.capiConnectionDown');

    return why && !pointed && (r.findings.length === 0 || r.status === 'healthy') ? [`${ r.key }: ${ why }, but ${ r.status } [${ r.findings.map((f) => f.rule).join(', ') }]`] : [];
  });
}

/**
 * Sentences of a cause that say a value is absent, and the evidence paths (and objects) that would show it.
 * Besides these, any "no <field name>" is checked against evidence of that field.
 */
const ABSENCE_CLAIMS: { claim: RegExp; path: RegExp; object?: RegExp }[] = [
  { claim: /no applied checksum|never applied/i, path: /data\.applied-checksum$/ },
  { claim: /no apply time|never applied/i, path: /data\.last-apply-time$/ },
  { claim: /no failure count|never failed/i, path: /data\.failure-count$/ },
  { claim: /no failed checksum|never failed/i, path: /data\.failed-checksum$/ },
  {
    claim: /has no spec\.providerID|has no providerID/i, path: /spec\.providerID$/, object: /^Node /
  },
  { claim: /no Kubernetes Node has been linked/i, path: /status\.nodeRef(\.name)?$/ },
];

function shown(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '' && value !== 0 && value !== '0';
}

/** Sentences of a finding's cause that deny what its evidence shows. */
export function contradictions(f: Finding, t: Translate): string[] {
  const cause = t(f.causeKey, f.args);
  const sentences = cause.split(/(?<=[.:;])\s+/);
  const out: string[] = [];

  for (const sentence of sentences) {
    for (const { claim, path, object } of ABSENCE_CLAIMS) {
      if (!claim.test(sentence)) {
        continue;
      }
      for (const e of f.evidence) {
        if (path.test(e.path) && (!object || object.test(e.object)) && shown(e.value)) {
          out.push(`${ f.rule }: "${ sentence }" but ${ e.object } ${ e.path } = ${ JSON.stringify(e.value) }`);
        }
      }
    }
    for (const e of f.evidence) {
      const field = e.path.replace(/\[.*?\]/g, '').split('.').pop() ?? '';
      const words = field.replace(/[-_]/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

      if (words.length > 3 && shown(e.value) && new RegExp(`\\bno ${ words }\\b(?!\\.\\w)`, 'i').test(sentence)) {
        out.push(`${ f.rule }: "${ sentence }" but ${ e.object } ${ e.path } = ${ JSON.stringify(e.value) }`);
      }
    }
  }

  return out;
}

export function reportContradictions(report: DiagnosisReport, t: Translate): string[] {
  return [
    ...report.records.flatMap((r) => r.findings.flatMap((f) => contradictions(f, t).map((c) => `${ r.key }: ${ c }`))),
    ...report.clusters.flatMap((c) => c.findings.flatMap((f) => contradictions(f, t).map((x) => `cluster ${ c.name }: ${ x }`))),
  ];
}
