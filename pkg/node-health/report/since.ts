/**
 * A finding's start told by the timeline: "since 2026-06-02 07:40 UTC, when: Applying the plan fails (Secret …)".
 * The entry is the engine's (entryExplaining); an entry before the finding's since is said as what came before.
 */
import { entryExplaining } from '../engine';
import type { Finding, MessageArgs, TimelineEntry } from '../engine';
import type { Translate } from './translate';
import { sayObject } from './objects';

/** The sentence for a finding's start, or null when no timeline entry explains it. */
export function sinceSentence(finding: Pick<Finding, 'since' | 'evidence'>, entries: readonly TimelineEntry[], t: Translate): { key: string; args: MessageArgs } | null {
  const e = entryExplaining(finding, entries);

  if (!e || !finding.since) {
    return null;
  }
  const same = Math.floor(Date.parse(e.at) / 1000) === Math.floor(Date.parse(finding.since) / 1000);

  return {
    key:  same ? 'nodeHealth.timeline.findingSince' : 'nodeHealth.timeline.findingSinceAfter',
    args: {
      // Times as Kubernetes wrote them: the translator says them as its reader is told times (TIME_ARGS).
      since: finding.since, at: e.at, text: t(e.key, e.args), object: sayObject(e.object, t)
    },
  };
}
