import type { EngineConfig } from './types';

const MINUTE = 60 * 1000;

/**
 * Defaults follow Cluster API's MachineHealthCheck (10 minutes for a node to start) so that a machine that
 * is merely slow is not reported; every time-based rule reads its threshold from here.
 */
export const DEFAULT_CONFIG: EngineConfig = {
  agentCheckInTimeoutMs:  10 * MINUTE,
  nodeStartupTimeoutMs:   10 * MINUTE,
  planApplyTimeoutMs:     10 * MINUTE,
  probeFailureTimeoutMs:  10 * MINUTE,
  stuckDeletingTimeoutMs: 10 * MINUTE,
  nodeNotReadyTimeoutMs:  5 * MINUTE,
  nodeStatusStaleMs:      10 * MINUTE,
  windowsMinMemoryBytes:  4 * 1024 * 1024 * 1024,
  upgradeTimeoutMs:       30 * MINUTE,
  drainTimeoutMs:         30 * MINUTE,
  servingCertLifetimeMs:  365 * 24 * 60 * MINUTE,
  clusterAgentTimeoutMs:  5 * MINUTE,
};

export function resolveConfig(overrides?: Partial<EngineConfig>): EngineConfig {
  const config = { ...DEFAULT_CONFIG };

  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && key in config) {
      (config as any)[key] = value;
    }
  }

  return config;
}
