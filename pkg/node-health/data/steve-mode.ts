/**
 * Which form of list request Steve honours here: the dashboard knows whether Steve runs with its SQL cache from
 * the `ui-sql-cache` feature it loads at start (shell utils/pagination-utils isSteveCacheEnabled).
 */
import type { ListForm } from './requests';
import type { StoreGetters } from './store-lists';

export const STEVE_CACHE_FEATURE = 'ui-sql-cache';

/** `filter` with the SQL cache on; `selectors` when it is off or cannot be told (right in both modes). */
export function listFormOf(getters: StoreGetters): ListForm {
  try {
    return getters['features/get']?.(STEVE_CACHE_FEATURE) === true ? 'filter' : 'selectors';
  } catch {
    return 'selectors';
  }
}
