/**
 * The kubelets of the served clusters' live Nodes. A kubelet that runs writes its Node's status at least every
 * nodeStatusReportFrequency (5 min) even when nothing changed, which moves every condition's lastHeartbeatTime; a
 * Node whose status nothing writes any more is one Kubernetes and the Node Health tab call stale. Here each Node a
 * scenario shows live (Ready True or False from a status written within the last two minutes of its `now`) is
 * written again once its status is 5 min old, so that it stays live however long the server runs. A Node the
 * scenario shows otherwise (Ready Unknown, a status nothing writes any more) keeps what it was given, as does a
 * bundle's Node (read-only, and as of the moment the bundle was made).
 *
 * A kubelet that runs also renews its Node's Lease in kube-node-lease every 10 s, whether or not it can write its
 * status: each Lease a scenario shows renewed (within the last two minutes of its `now`) is renewed at every tick
 * here, the others keep their last renewal. Nothing watches Leases, so their writes cost no traffic.
 */
import { NODE_LEASE_NAMESPACE } from '../pkg/node-health/engine/objects';
import { microTime, rfc3339 } from '../scenarios/time';
import type { KubeObject } from '../scenarios/types';
import { LOCAL_SCOPE } from './store';
import type { ObjectStore } from './store';
import type { TypeInfo } from './type-registry';

/** kubelet's nodeStatusReportFrequency */
export const REPORT_MS = 5 * 60 * 1000;
/** How often the kubelets look whether their report is due */
const TICK_MS = 30 * 1000;
/** A status this recent at the scenario's `now` is a kubelet that runs */
const LIVE_AT_START_MS = 2 * 60 * 1000;

interface Condition {
  type?: unknown;
  status?: unknown;
  lastHeartbeatTime?: unknown;
}

function readyOf(node: KubeObject): Condition | undefined {
  const conditions = (node.status as { conditions?: Condition[] } | undefined)?.conditions;

  return Array.isArray(conditions) ? conditions.find((c) => c && c.type === 'Ready') : undefined;
}

function heartbeatOf(node: KubeObject): number {
  const beat = readyOf(node)?.lastHeartbeatTime;

  return typeof beat === 'string' ? Date.parse(beat) : NaN;
}

function renewTimeOf(lease: KubeObject): number {
  const renewed = (lease.spec as { renewTime?: unknown } | undefined)?.renewTime;

  return typeof renewed === 'string' ? Date.parse(renewed) : NaN;
}

export class Kubelets {
  private readonly live: { scope: string; info: TypeInfo; name: string }[] = [];
  private readonly renewing: { scope: string; info: TypeInfo; name: string }[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;

  /** The live Nodes of `store` as built at `now` */
  constructor(private readonly store: ObjectStore, now: number) {
    for (const scope of store.scopeIds()) {
      const info = scope === LOCAL_SCOPE ? undefined : store.scope(scope)?.types.fromSteveName('node');

      if (!info) {
        continue;
      }
      const leaseInfo = store.scope(scope)?.types.fromSteveName('coordination.k8s.io.lease');

      for (const lease of leaseInfo ? store.list(scope, leaseInfo.id, NODE_LEASE_NAMESPACE) : []) {
        if (now - renewTimeOf(lease) <= LIVE_AT_START_MS) {
          this.renewing.push({
            scope, info: leaseInfo as TypeInfo, name: lease.metadata.name
          });
        }
      }
      for (const node of store.list(scope, info.id)) {
        const status = readyOf(node)?.status;
        const beat = heartbeatOf(node);

        if ((status === 'True' || status === 'False') && now - beat <= LIVE_AT_START_MS) {
          this.live.push({
            scope, info, name: node.metadata.name
          });
        }
      }
    }
  }

  get count(): number {
    return this.live.length;
  }

  /**
   * Each live Node whose status is due: its conditions' heartbeats set to `now`, written as the kubelet writes it
   * (how many were is returned); and every renewed Lease renewed again.
   */
  report(now: number): number {
    let written = 0;

    for (const { scope, info, name } of this.live) {
      const node = this.store.peek(scope, info.id, undefined, name);

      if (!node || !(now - heartbeatOf(node) >= REPORT_MS)) {
        continue;
      }
      const status = node.status as { conditions: Condition[] };
      const beat = rfc3339(now);

      this.store.update(scope, info, undefined, name, {
        ...node,
        status: { ...status, conditions: status.conditions.map((c) => (c && typeof c === 'object' ? { ...c, lastHeartbeatTime: beat } : c)) }
      });
      written++;
    }

    for (const { scope, info, name } of this.renewing) {
      const lease = this.store.peek(scope, info.id, NODE_LEASE_NAMESPACE, name);

      if (lease) {
        this.store.update(scope, info, NODE_LEASE_NAMESPACE, name, { ...lease, spec: { ...(lease.spec as object), renewTime: microTime(now) } });
      }
    }

    return written;
  }

  start(): void {
    this.timer ??= setInterval(() => this.report(Date.now()), TICK_MS);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
