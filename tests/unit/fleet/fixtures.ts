import { SCENARIOS } from '../../../scenarios/catalog';
import type { Scenario } from '../../../scenarios/types';

export const FLEET_NOW = '2026-06-15T14:00:00Z';

/** Every seed scenario's clusters together in one Rancher, on one clock. */
export function seedFleet(now = FLEET_NOW): Scenario {
  const parts = Object.values(SCENARIOS).map((build) => build({ now }));

  return {
    name:         'seed-fleet',
    title:        'Every seed scenario in one Rancher',
    description:  'The seed scenarios side by side.',
    now,
    secretMarker: parts[0].secretMarker,
    clusters:     parts.flatMap((p) => p.clusters),
    objects:      parts.flatMap((p) => p.objects),
    downstream:   Object.assign({}, ...parts.map((p) => p.downstream)),
    expected:     Object.assign({}, ...parts.map((p) => p.expected)),
  };
}
