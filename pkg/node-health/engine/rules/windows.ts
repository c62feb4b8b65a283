/**
 * Windows workers fail in ways Linux ones do not: RKE2 supports only Windows Server 2019 and 2022 (LTSC),
 * and kubelet with the Windows container runtime does not start reliably on small VMs.
 */
import { asObject, asString, statusOf } from '../fields';
import { Rule, evidence, objectLabel, step } from './rule';

const UNSUPPORTED_WINDOWS = /Windows Server 2016|Windows 10|Windows 11|Windows Server 2012/i;

/** Parses a Kubernetes memory quantity ("2Gi", "2097152Ki", "2G") into bytes. */
export function parseQuantityBytes(value: unknown): number | null {
  const s = asString(value);
  const m = s ? /^(\d+(?:\.\d+)?)([EPTGMK]i?|[eptgmk]|)$/.exec(s.trim()) : null;

  if (!m) {
    return null;
  }
  const units: Record<string, number> = {
    '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  };

  return Number(m[1]) * (units[m[2]] ?? 1);
}

export const windowsVersionUnsupported: Rule = {
  id:       'windows-version-unsupported',
  severity: 'warning',
  explains: ['waiting-for-node-ref', 'blocking-cluster-operation', 'node-not-ready'],
  needs:    [],
  check(r) {
    const n = r.objects.node;

    if (!n || r.os !== 'windows') {
      return null;
    }
    const osImage = asString(asObject(statusOf(n).nodeInfo).osImage);

    if (!osImage || !UNSUPPORTED_WINDOWS.test(osImage)) {
      return null;
    }

    return {
      args:     { osImage },
      evidence: [evidence(objectLabel('node', n), 'status.nodeInfo.osImage', osImage)],
      fix:      [step(this.id, 'supported'), step(this.id, 'replace')],
      since:    r.created,
      actions:  [],
    };
  },
};

export const windowsMemoryLow: Rule = {
  id:       'windows-memory-low',
  severity: 'warning',
  explains: ['waiting-for-node-ref', 'blocking-cluster-operation', 'node-not-ready'],
  needs:    [],
  check(r, ctx) {
    const n = r.objects.node;

    if (!n || r.os !== 'windows') {
      return null;
    }
    const raw = asObject(statusOf(n).capacity).memory;
    const bytes = parseQuantityBytes(raw);

    if (bytes === null || bytes >= ctx.config.windowsMinMemoryBytes) {
      return null;
    }

    return {
      args:     { memory: asString(raw) ?? '?', minimum: `${ Math.round(ctx.config.windowsMinMemoryBytes / 2 ** 30) }Gi` },
      evidence: [evidence(objectLabel('node', n), 'status.capacity.memory', asString(raw))],
      fix:      [step(this.id, 'resize')],
      since:    r.created,
      actions:  [],
    };
  },
};
