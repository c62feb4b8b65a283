/**
 * A machine against its pool, in one sentence: "Provisioning for 42 min; the other machines of pool wk got their
 * Node in 3 min (median of 12)". Nothing to say for a machine that got its Node in the usual time.
 */
import type { MessageArgs, PoolComparison } from '../engine';

export function poolSentence(p: PoolComparison | undefined): { key: string; args: MessageArgs } | null {
  if (!p || (p.done && !p.outlier)) {
    return null;
  }
  const where = p.custom ? 'roles' : 'pool';

  if (p.medianMs === null) {
    return {
      key:  'nodeHealth.pool.waitingAlone',
      args: {
        duration: p.provisioningMs, pool: p.pool, where
      }
    };
  }

  return {
    key:  p.done ? 'nodeHealth.pool.took' : 'nodeHealth.pool.waiting',
    args: {
      duration: p.provisioningMs, median: p.medianMs, peers: p.peers, pool: p.pool, where
    },
  };
}
