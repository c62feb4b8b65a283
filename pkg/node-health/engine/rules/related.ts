/**
 * A record that another record's finding is about. The Node a machine waits for under another spelling, or the
 * one its host most likely is, looks healthy on its own (it is Ready, nothing on it is wrong), yet it is half of a
 * problem whose plan is on the other record: its row must say so and lead there, never "nothing wrong".
 * Runs after every record has been judged (engine/hosts.ts relateNamed says which records are named).
 */
import type { RelatedRecord } from '../types';
import type { Rule } from './rule';
import { step } from './rule';
import { withSharedEvidence } from '../hosts';

/** Where the row detail and the reports lead: the other record, by its machine, else its Node. */
export function relatedName(x: Pick<RelatedRecord, 'machine' | 'node'>): string {
  return x.machine ?? x.node ?? '?';
}

export const relatedRecord: Rule = {
  id:       'related-record',
  severity: 'warning',
  needs:    [],
  check(r) {
    // A record with its own problem has its own plan, which names the other record where it matters.
    if (r.findings.some((f) => f.severity !== 'info')) {
      return null;
    }
    const namers = r.related.filter((x) => x.namedBy.length > 0);
    const namer = namers.find((x) => x.sameHost) ?? namers[0];

    if (!namer) {
      return null;
    }
    const shared = namer.shared[0];

    return {
      // The same host: this record's state is that problem's. Another host whose name a finding cites: worth knowing.
      severity: namer.sameHost ? 'warning' : 'info',
      args:     {
        other:    relatedName(namer),
        kind:     namer.machine ? 'machine' : 'node',
        rule:     namer.namedBy[0],
        sameHost: namer.sameHost ?? 'no',
        signal:   shared?.signal ?? '-',
        value:    shared?.value ?? '-',
      },
      evidence: withSharedEvidence([], namer),
      fix:      [step(this.id, namer.sameHost ? 'followOther' : 'readOther', { other: relatedName(namer), kind: namer.machine ? 'machine' : 'node' })],
      since:    null,
      actions:  [],
    };
  },
};

/** Rules that read the findings of other records: they run once every record has its own. */
export const AFTER_RULES: readonly Rule[] = [relatedRecord];
