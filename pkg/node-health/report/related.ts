/**
 * A record's relations in words (engine/hosts.ts): which other record is the same host and by what, and which
 * records a finding of either names. One rendering for the row detail, the text, Markdown and JSON reports.
 */
import type { RelatedRecord, Translate } from '../engine';

/** How the other record is named: by its machine and Node, or the one it has. */
export function relatedTargetArgs(x: Pick<RelatedRecord, 'machine' | 'node'>): { kind: string; machine: string; node: string } {
  return {
    kind: x.machine && x.node ? 'both' : x.machine ? 'machine' : 'node', machine: x.machine ?? '-', node: x.node ?? '-'
  };
}

/** The values the two records share, in words ("same address 10.20.1.21, same host name dev-k8s-node01"). */
export function sharedText(x: Pick<RelatedRecord, 'shared'>, t: Translate): string {
  return x.shared.map((s) => t('nodeHealth.related.shared', { signal: s.signal, value: s.value })).join(t('nodeHealth.related.separator'));
}

/** One sentence per way the records are related: the same host, this record's findings name it, its findings name this. */
export function relationSentences(x: RelatedRecord, t: Translate): string[] {
  const target = relatedTargetArgs(x);
  const out: string[] = [];

  if (x.sameHost) {
    out.push(t('nodeHealth.related.sameHost', {
      ...target, certainty: x.sameHost, shared: sharedText(x, t)
    }));
  }
  if (x.names.length > 0) {
    out.push(t('nodeHealth.related.names', {
      ...target, rules: x.names.join(t('nodeHealth.related.separator')), count: x.names.length
    }));
  }
  if (x.namedBy.length > 0) {
    out.push(t('nodeHealth.related.namedBy', {
      ...target, rules: x.namedBy.join(t('nodeHealth.related.separator')), count: x.namedBy.length
    }));
  }

  return out;
}

/** The relation as one line of text: the report's `why`. */
export function relationText(x: RelatedRecord, t: Translate): string {
  return relationSentences(x, t).reduce((first, next) => t('nodeHealth.related.then', { first, next }));
}
