/**
 * What the row detail shows, worked out without Vue: the state colour of each chain link, which write
 * actions the user may run (Steve drops `links.update` from an object the user may not change), and
 * the evidence as display text.
 */
import type {
  ActionId, ChainLink, Evidence, Finding, NodeRecord
} from '../engine';
import { canUpdate } from '../actions/finalizers';
import { sayDurationMs } from '../report/durations';
import type { Translate } from './rows';

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

export function evidenceValue(e: Evidence): string {
  return e.value === null ? '—' : String(e.value);
}

/** "2h 5m" from an RFC3339 time to the report's time, in the user's language, or null when unknown. */
export function durationSince(since: string | null, nowMs: number, t: Translate): string | null {
  if (!since) {
    return null;
  }
  const at = Date.parse(since);

  return Number.isNaN(at) ? null : sayDurationMs(Math.max(0, nowMs - at), t);
}
