/**
 * What the row detail shows, worked out without Vue: the state colour of each chain link, which actions the
 * user may run (as the action catalogue says), and the evidence as display text.
 */
import type { ChainLink, Evidence, Translate } from '../engine';
import { sayDurationMs } from '../report/durations';
import { sinceMs } from './rows';

export const LINK_STATE_COLORS: Record<ChainLink['state'], string> = {
  present:          'bg-success',
  waiting:          'bg-info',
  failed:           'bg-error',
  missing:          'bg-error',
  unreadable:       'bg-darker',
  'not-loaded':     'bg-darker',
  'not-applicable': 'bg-darker',
  unlinked:         'bg-warning',
};

export { actionOffers } from '../actions/catalogue';
export type { ActionOffer } from '../actions/catalogue';

/** An evidence value as display text: a dash for a value that is missing or empty. */
export function evidenceValue(e: Pick<Evidence, 'value'>): string {
  return e.value === null || e.value === '' ? '—' : String(e.value);
}

/** "2h 5m" from an RFC3339 time to the report's time, in the user's language, or null when unknown. */
export function durationSince(since: string | null, nowMs: number, t: Translate): string | null {
  const ms = sinceMs(nowMs, since);

  return ms === null ? null : sayDurationMs(ms, t);
}
