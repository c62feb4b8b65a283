/**
 * What the row detail shows, worked out without Vue: the state colour of each chain link, which write
 * actions the user may run (Steve drops `links.update` from an object the user may not change), and
 * the evidence as display text.
 */
import type {
  ActionId, ChainLink, Evidence, Finding, NodeRecord, Translate
} from '../engine';
import { canUpdate } from '../actions/finalizers';
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
};

/** The object an action writes to; re-register only shows a command and needs no write permission. */
const ACTION_TARGET: Record<ActionId, 'machine' | 'bootstrap' | null> = {
  'remove-finalizers': 'machine',
  'etcd-force-remove': 'bootstrap',
  're-register':       null,
};

export interface ActionOffer {
  id: ActionId;
  /** false: the button is hidden and `reasonKey` says why */
  allowed: boolean;
  reasonKey: string | null;
}

export function actionOffers(finding: Finding, record: NodeRecord): ActionOffer[] {
  return finding.actions.map((id) => {
    const target = ACTION_TARGET[id];

    if (!target) {
      return {
        id, allowed: true, reasonKey: null
      };
    }
    const obj = record.objects[target];

    if (!obj) {
      return {
        id, allowed: false, reasonKey: `nodeHealth.tab.actions.notLoaded.${ target }`
      };
    }

    return canUpdate(obj) ? {
      id, allowed: true, reasonKey: null
    } : {
      id, allowed: false, reasonKey: `nodeHealth.tab.actions.noPermission.${ target }`
    };
  });
}

/** An evidence value as display text: a dash for a value that is missing or empty. */
export function evidenceValue(e: Pick<Evidence, 'value'>): string {
  return e.value === null || e.value === '' ? '—' : String(e.value);
}

/** "2h 5m" from an RFC3339 time to the report's time, in the user's language, or null when unknown. */
export function durationSince(since: string | null, nowMs: number, t: Translate): string | null {
  const ms = sinceMs(nowMs, since);

  return ms === null ? null : sayDurationMs(ms, t);
}
