/**
 * The composites: `buildNode` derives one node's consistent set of objects (conditions, plan data, join
 * keys) from a few knobs that say what is wrong with it; `buildCluster` builds a whole cluster of them.
 */

import { sha256Hex } from '../encoding';
import { stableHex, stableInt, stableSuffix } from '../random';
import {
  ago, Duration, durationSeconds, parseTime, rfc3339
} from '../time';
import {
  CapiCondition, ClusterKind, KubeObject, Labels, MachinePhase, MachineV1beta1, NodeAddress, NodeObject,
  ScenarioCluster, SecretObject
} from '../types';
import {
  DEFAULT_NAMESPACE, DEFAULT_SECRET_MARKER, DEFAULT_SERVER_URL, FAILED_PLAN_MESSAGE, NO_AGENT_MESSAGE,
  OperatingSystem, PLAN_APPLY_ERROR_MESSAGE, Roles, runtimeOf, uidFor, WAITING_PLAN_MESSAGE
} from './common';
import { capiMachine } from './machine';
import {
  machinePlanSecret, NodePlanOptions, PlanSecretOptions, probeNamesFor, ProbeStatus, renderNodePlan
} from './plan-secret';
import { rkeBootstrap } from './bootstrap';
import { customMachine, vsphereMachine } from './infrastructure';
import { agentCredentials } from './agent';
import { downstreamNode, nodeSystemInfo } from './node';
import { managementNode } from './management-node';
import { managementCluster, provisioningCluster } from './cluster';
import { clusterRegistrationToken } from './registration';
import { capiCluster, poolObjects } from './capi';

/** What the agent on the host has done with its plan. */
export type AgentState =
  | 'in-sync' // applied the current plan, probes healthy
  | 'never-checked-in' // plan written, agent never applied anything (no appliedPlan)
  | 'plan-pending' // a newer plan is waiting to be applied
  | 'plan-failed' // applying the current plan failed past the threshold
  | 'probes-failing'; // applied, but some probes are unhealthy

/** What the downstream cluster knows about the host. */
export type NodeState =
  | 'ready' // Node registered, linked to the Machine, Ready=True
  | 'not-ready' // Node registered and linked, Ready False/Unknown
  | 'never-registered' // no Node, Machine waits for its node ref
  | 'deleted' // Machine's nodeRef points at a Node that no longer exists
  | 'unlinked'; // a Node exists under registeredName but carries no machine label or annotations

export interface NodeSpec {
  /** host name as the host reports it (may be upper case: Windows) */
  hostname: string;
  machineName?: string;
  /** custom clusters: agent id hash; the machine is named custom-<first 12 hex chars> */
  machineId?: string;
  /** node-driver clusters: pool name */
  pool?: string;
  roles: Roles;
  os?: OperatingSystem;
  osImage?: string;
  kernelVersion?: string;
  cpu?: number;
  memoryKi?: number;
  address: string;
  internalAddress?: string;
  createdAgo: Duration;
  /** node name given at registration (label rke.cattle.io/node-name) */
  nodeNameLabel?: string;
  /** the host of the server this node joined (default: the init node) */
  joinedTo?: string;
  agent?: AgentState;
  /** when the current plan was written (default: shortly after creation) */
  planUpdatedAgo?: Duration;
  unhealthyProbes?: string[];
  /** false: the machine-plan secret does not exist */
  planSecret?: boolean;
  /** 'vm-missing': node-driver VM vanished; 'deleted': the infrastructure object is gone */
  infra?: 'ready' | 'vm-missing' | 'deleted';
  infraMessage?: string;
  node?: NodeState;
  /** name the downstream Node registered under (default: lower-cased hostname) */
  registeredName?: string;
  notReady?: { status: 'False' | 'Unknown'; reason?: string; message?: string; since: Duration };
  deleting?: { ago: Duration; blockedBy: 'drain' | 'etcd-hook' | 'finalizer' };
  etcdForceRemove?: boolean;
  /** replaces the planner message on the Reconciled condition */
  reconciledMessage?: string;
  /** emit the agent's ServiceAccount and token secret */
  agentCredentials?: boolean;
  /** no management Node even though a downstream Node exists */
  noManagementNode?: boolean;
}

export interface ClusterContext {
  name: string;
  namespace: string;
  mgmtId: string;
  kind: ClusterKind;
  kubernetesVersion: string;
  now: string;
  serverUrl: string;
  secretMarker: string;
  /** cluster join token (K10...::server:...) */
  joinToken: string;
  planStateKeys?: boolean;
}

export interface BuiltNode {
  spec: NodeSpec;
  machineName: string;
  /** name of the downstream Node as registered (or expected) */
  nodeName: string;
  tier: 'bootstrap' | 'etcd' | 'control plane' | 'worker';
  /** planner status for this machine ('' when in sync) */
  plannerMessage: string;
  machine: MachineV1beta1;
  planSecret?: SecretObject;
  bootstrap: KubeObject;
  infraMachine?: KubeObject;
  managementNode?: KubeObject;
  node?: NodeObject;
  credentials?: KubeObject[];
  /** objects in Rancher's local cluster */
  local: KubeObject[];
  /** objects in the downstream cluster */
  downstream: KubeObject[];
}

export function joinToken(mgmtId: string, secretMarker = DEFAULT_SECRET_MARKER): string {
  return `K10${ sha256Hex(`cluster-ca:${ mgmtId }`) }::server:${ secretMarker }-${ stableHex(`join-token:${ mgmtId }`, 24) }`;
}

/** Stand-in for the sha256 of a host's cattle-id: 64 hex characters, stable per cluster and host. */
export function agentIdFor(clusterName: string, hostname: string): string {
  return stableHex(`cattle-id:${ clusterName }/${ hostname }`, 64);
}

export function customMachineName(machineId: string): string {
  return `custom-${ machineId.slice(0, 12) }`;
}

export function joinUrlFor(address: string, kubernetesVersion: string): string {
  return `https://${ address }:${ runtimeOf(kubernetesVersion) === 'rke2' ? 9345 : 6443 }`;
}

/** The planner's per-machine status, in rancher's order (pkg/capr/planner/store.go). */
export function plannerMessageFor(spec: NodeSpec): string {
  if (spec.reconciledMessage !== undefined) return spec.reconciledMessage;
  if (spec.planSecret === false) {
    if (spec.roles.etcd) return 'waiting for bootstrap etcd to be available';
    if (spec.roles.controlPlane) return 'waiting for etcd to be available';

    return 'waiting for control plane to be available';
  }
  switch (spec.agent ?? 'in-sync') {
  case 'never-checked-in': return NO_AGENT_MESSAGE;
  case 'probes-failing': return `waiting for probes: ${ [...(spec.unhealthyProbes ?? ['kubelet'])].sort().join(', ') }`;
  case 'plan-failed': return FAILED_PLAN_MESSAGE;
  case 'plan-pending': return WAITING_PLAN_MESSAGE;
  default: return '';
  }
}

function tierOf(spec: NodeSpec, initNode: boolean): BuiltNode['tier'] {
  if (initNode) return 'bootstrap';
  if (spec.roles.etcd) return 'etcd';
  if (spec.roles.controlPlane) return 'control plane';

  return 'worker';
}

/** Node-driver machine name: `<cluster>-<pool>-<machine set hash>-<suffix>`, a pure function of its arguments. */
export function nodeDriverMachineName(cluster: string, pool: string, key: string): string {
  const setHash = stableHex(`ms:${ cluster }-${ pool }`, 9).replace(/^[0-9]/, 'b');

  return `${ cluster }-${ pool }-${ setHash }-${ stableSuffix(`machine:${ cluster }/${ pool }/${ key }`) }`;
}

/** Resolves names the way the cluster builder does, without building anything. */
export function machineNameFor(ctx: Pick<ClusterContext, 'name' | 'kind'>, spec: NodeSpec): string {
  if (spec.machineName) return spec.machineName;
  if (ctx.kind === 'node-driver') return nodeDriverMachineName(ctx.name, spec.pool ?? 'pool1', spec.hostname);

  return customMachineName(spec.machineId ?? agentIdFor(ctx.name, spec.hostname));
}

interface NodeBuildExtras {
  initNode: boolean;
  joinedToUrl?: string;
}

const installOutputs = new WeakMap<ClusterContext, Record<string, string>>();

/** What the installer printed (with `set -x`, so the token shows): the same on every node of a cluster. */
function installOutputFor(ctx: ClusterContext): Record<string, string> {
  let output = installOutputs.get(ctx);

  if (!output) {
    const runtime = runtimeOf(ctx.kubernetesVersion);

    output = {
      install: [
        `+ export ${ runtime.toUpperCase() }_TOKEN=${ ctx.joinToken }`,
        '[INFO]  finding release for channel stable',
        `[INFO]  using ${ ctx.kubernetesVersion } as release`,
        `[INFO]  downloading checksums at https://github.com/rancher/${ runtime }/releases/download/${ ctx.kubernetesVersion }/sha256sum-amd64.txt`,
      ].join('\n'),
    };
    installOutputs.set(ctx, output);
  }

  return output;
}

export function buildNode(ctx: ClusterContext, spec: NodeSpec, extras: NodeBuildExtras = { initNode: false }): BuiltNode {
  const ns = ctx.namespace;
  const os = spec.os ?? 'linux';
  const runtime = runtimeOf(ctx.kubernetesVersion);
  const machineName = machineNameFor(ctx, spec);
  const machineId = ctx.kind === 'custom' ? (spec.machineId ?? agentIdFor(ctx.name, spec.hostname)) : undefined;
  const machineUid = uidFor('Machine', ns, machineName);
  const nowMs = parseTime(ctx.now);
  const createdSeconds = durationSeconds(spec.createdAgo);
  const createdMs = nowMs - createdSeconds * 1000;
  const createdAt = rfc3339(createdMs);
  const before = (span: Duration) => rfc3339(nowMs - durationSeconds(span) * 1000);
  const nodeState: NodeState = spec.node ?? 'ready';
  const agent: AgentState = spec.agent ?? 'in-sync';
  const infraState = spec.infra ?? 'ready';
  const nodeName = spec.registeredName ?? spec.hostname.toLowerCase();
  const linked = nodeState === 'ready' || nodeState === 'not-ready' || nodeState === 'deleted';
  const providerID = linked ? `${ runtime }://${ nodeName }` : undefined;
  const nodeUid = uidFor('Node', undefined, nodeName);
  const infraReady = infraState === 'ready' || infraState === 'deleted';
  const deletingAt = spec.deleting ? before(spec.deleting.ago) : undefined;
  const poolDeployment = ctx.kind === 'node-driver' ? `${ ctx.name }-${ spec.pool ?? 'pool1' }` : undefined;
  const internalAddress = spec.internalAddress ?? spec.address;
  const server = Boolean(spec.roles.etcd || spec.roles.controlPlane);
  const joinUrl = server ? joinUrlFor(internalAddress, ctx.kubernetesVersion) : undefined;
  const plannerMessage = plannerMessageFor(spec);
  const minutesAfterCreate = (m: number) => rfc3339(createdMs + Math.min(m * 60, Math.max(0, createdSeconds - 1)) * 1000);

  // plan and what the agent did with it
  const planAt = spec.planUpdatedAgo !== undefined ? before(spec.planUpdatedAgo) : minutesAfterCreate(2);
  const planOptions = (stamp: string): NodePlanOptions => ({
    kubernetesVersion: ctx.kubernetesVersion,
    roles:             spec.roles,
    os,
    machineUid,
    token:             ctx.joinToken,
    joinServer:        extras.initNode ? undefined : extras.joinedToUrl,
    nodeName:          spec.nodeNameLabel,
    address:           spec.address,
    internalAddress,
    restartStamp:      stableHex(`restart:${ stamp }`, 64),
  });
  const currentPlan = renderNodePlan(planOptions(`${ machineName }:${ planAt }`));
  const currentPlanHash = sha256Hex(currentPlan);
  const previousPlanAt = rfc3339(Math.min(parseTime(planAt) - 3600_000, parseTime(minutesAfterCreate(2))));
  // only nodes behind on their plan need the older one
  const previousPlan = agent === 'plan-pending' || agent === 'plan-failed' ? renderNodePlan(planOptions(`${ machineName }:${ previousPlanAt }`)) : currentPlan;
  const previousPlanHash = previousPlan === currentPlan ? currentPlanHash : sha256Hex(previousPlan);
  const applyOutput = () => installOutputFor(ctx);
  const probeNames = probeNamesFor(spec.roles, runtime);
  const healthyProbes = (count: number): Record<string, ProbeStatus> => Object.fromEntries(
    probeNames.map((p) => [p, {
      healthy: true, successCount: count, failureCount: 0
    }]),
  );

  let planSecret: SecretObject | undefined;

  if (spec.planSecret !== false) {
    const base: PlanSecretOptions = {
      machineName,
      namespace:          ns,
      clusterName:        ctx.name,
      createdAt:          rfc3339(createdMs + 1000),
      bootstrapName:      machineName,
      roles:              spec.roles,
      os,
      address:            spec.address,
      internalAddress,
      registrationLabels: { 'cattle.io/os': os },
      initNode:           extras.initNode,
      joinUrl,
      joinedTo:           extras.initNode ? '' : extras.joinedToUrl,
      planLastUpdated:    planAt,
      plan:               currentPlan,
      // What the planner writes on every plan (pkg/capr/planner/planner.go reconcile): the agent retries for
      // ever (-1); one failure fails a Linux plan, five a Windows worker's.
      maxFailures:        -1,
      failureThreshold:   os === 'windows' ? 5 : 1,
    };
    const appliedAt = rfc3339(Math.min(parseTime(planAt) + 47_000, nowMs));
    let o: PlanSecretOptions;

    switch (agent) {
    case 'never-checked-in':
      o = {
        ...base, planProbesPassed: '', planState: ctx.planStateKeys ? 'pending' : undefined
      };
      break;
    case 'plan-pending':
      o = {
        ...base,
        planProbesPassed: '',
        appliedPlan:      previousPlan,
        appliedChecksum:  previousPlanHash,
        appliedOutput:    applyOutput(),
        successCount:     1,
        failureCount:     0,
        lastApplyTime:    rfc3339(parseTime(previousPlanAt) + 47_000),
        planState:        ctx.planStateKeys ? 'pending' : undefined,
      };
      break;
    case 'plan-failed':
      o = {
        ...base,
        planProbesPassed: '',
        appliedPlan:      previousPlan,
        appliedChecksum:  previousPlanHash,
        appliedOutput:    applyOutput(),
        failedChecksum:   currentPlanHash,
        failedOutput:     {
          install: [
            `+ export ${ runtime.toUpperCase() }_TOKEN=${ ctx.joinToken }`,
            `[INFO]  using ${ ctx.kubernetesVersion } as release`,
            `Job for ${ runtime }-${ server ? 'server' : 'agent' }.service failed because the control process exited with error code.`,
            `See "systemctl status ${ runtime }-${ server ? 'server' : 'agent' }.service" and "journalctl -xeu ${ runtime }-${ server ? 'server' : 'agent' }.service" for details.`,
          ].join('\n'),
        },
        successCount:     0,
        failureCount:     5,
        lastApplyTime:    before('3m'),
        planState:        ctx.planStateKeys ? 'failed' : undefined,
      };
      break;
    case 'probes-failing': {
      const unhealthy = new Set(spec.unhealthyProbes ?? ['kubelet']);

      o = {
        ...base,
        // The planner clears it with every new plan; failing, the probes have not passed since.
        planProbesPassed: '',
        appliedPlan:      currentPlan,
        appliedChecksum:  currentPlanHash,
        appliedOutput:    applyOutput(),
        successCount:     1,
        failureCount:     0,
        lastApplyTime:    appliedAt,
        probeStatuses:    Object.fromEntries(probeNames.map((p) => [p, unhealthy.has(p) ? {
          healthy: false, successCount: 0, failureCount: 57
        } : {
          healthy: true, successCount: 212, failureCount: 0
        }])),
        planState: ctx.planStateKeys ? 'succeeded' : undefined,
      };
      break;
    }
    default:
      o = {
        ...base,
        planProbesPassed: rfc3339(Math.min(parseTime(appliedAt) + 30_000, nowMs)),
        appliedPlan:      currentPlan,
        appliedChecksum:  currentPlanHash,
        appliedOutput:    applyOutput(),
        successCount:     1,
        failureCount:     0,
        lastApplyTime:    appliedAt,
        probeStatuses:    healthyProbes(stableInt(`probes:${ machineName }`, 40, 4000)),
        planState:        ctx.planStateKeys ? 'succeeded' : undefined,
      };
    }
    if (ctx.planStateKeys) o.planRevision = stableInt(`rev:${ machineName }:${ planAt }`, 2, 40);
    planSecret = machinePlanSecret(o);
  }

  // downstream Node
  let node: NodeObject | undefined;

  if (nodeState === 'ready' || nodeState === 'not-ready' || nodeState === 'unlinked') {
    const notReady = nodeState === 'not-ready' ? {
      status: spec.notReady?.status ?? 'False', reason: spec.notReady?.reason, message: spec.notReady?.message, since: before(spec.notReady?.since ?? '30m')
    } : undefined;

    node = downstreamNode({
      name:              nodeName,
      createdAt:         minutesAfterCreate(4),
      kubernetesVersion: ctx.kubernetesVersion,
      roles:             spec.roles,
      os,
      osImage:           spec.osImage,
      kernelVersion:     spec.kernelVersion,
      address:           spec.address,
      internalAddress,
      cpu:               spec.cpu,
      memoryKi:          spec.memoryKi,
      machineUid:        nodeState === 'unlinked' ? undefined : machineUid,
      capiMachine:       nodeState === 'unlinked' ? undefined : {
        name: machineName, clusterName: ctx.name, namespace: ns
      },
      providerID:        nodeState === 'unlinked' ? undefined : providerID,
      ready:             notReady ?? { status: 'True', since: minutesAfterCreate(5) },
      unschedulable:     Boolean(spec.deleting),
      // Cluster API cordons the Node as it starts to drain it, once the pre-drain hooks are done.
      cordonedAt:        deletingAt,
      heartbeat:         before(stableInt(`hb:${ nodeName }`, 5, 50)),
    });
  }

  // Machine conditions
  const at = (m: number) => minutesAfterCreate(m);
  const conditions: CapiCondition[] = [{
    type: 'BootstrapReady', status: 'True', lastTransitionTime: at(1)
  }];
  let failureReason: string | undefined;
  let failureMessage: string | undefined;
  const infraKind = ctx.kind === 'node-driver' ? 'VmwarevsphereMachine' : 'CustomMachine';
  const infraApiVersion = ctx.kind === 'node-driver' ? 'rke-machine.cattle.io/v1' : 'rke.cattle.io/v1';
  const vmMissingMessage = spec.infraMessage ?? `failed to get state of VM ${ machineName }: no VM found (vm '/Datacenter/vm/rancher/${ machineName }' not found)`;

  if (infraState === 'ready') {
    conditions.push({
      type: 'InfrastructureReady', status: 'True', lastTransitionTime: at(1)
    });
  } else if (infraState === 'vm-missing') {
    conditions.push({
      type: 'InfrastructureReady', status: 'False', severity: 'Error', reason: 'Error', message: vmMissingMessage, lastTransitionTime: before('3h')
    });
  } else {
    failureReason = 'InvalidConfiguration';
    failureMessage = spec.infraMessage ?? `Machine infrastructure resource ${ infraApiVersion }, Kind=${ infraKind } with name "${ machineName }" has been deleted after being ready`;
    conditions.push({
      type: 'InfrastructureReady', status: 'False', severity: 'Error', reason: 'IncorrectExternalRef', message: failureMessage, lastTransitionTime: before('1h')
    });
  }
  if (nodeState === 'ready') {
    conditions.push({
      type: 'NodeHealthy', status: 'True', lastTransitionTime: at(6)
    });
  } else if (nodeState === 'not-ready') {
    const cond = node?.status.conditions.find((c) => c.type === 'Ready');

    conditions.push({
      type:               'NodeHealthy',
      status:             'False',
      severity:           'Warning',
      reason:             'NodeConditionsFailed',
      message:            `Node condition Ready is ${ cond?.status ?? 'False' }. ${ cond?.message ?? '' }`.trim(),
      lastTransitionTime: cond?.lastTransitionTime ?? at(6),
    });
  } else if (nodeState === 'deleted') {
    conditions.push({
      type: 'NodeHealthy', status: 'False', severity: 'Error', reason: 'NodeNotFound', lastTransitionTime: before('5h')
    });
  } else {
    conditions.push({
      type: 'NodeHealthy', status: 'False', severity: 'Info', reason: 'WaitingForNodeRef', lastTransitionTime: at(1)
    });
  }
  if (plannerMessage) {
    conditions.push({
      type: 'Reconciled', status: 'Unknown', reason: 'Waiting', message: plannerMessage, lastTransitionTime: agent === 'never-checked-in' ? at(2) : planAt
    });
  } else {
    conditions.push({
      type: 'Reconciled', status: 'True', lastTransitionTime: at(8)
    });
  }
  if (agent === 'plan-failed') {
    conditions.push({
      type: 'PlanApplied', status: 'False', severity: 'Error', reason: 'Error', message: PLAN_APPLY_ERROR_MESSAGE, lastTransitionTime: before('25m')
    });
  } else if (agent !== 'never-checked-in' && spec.planSecret !== false) {
    conditions.push({
      type: 'PlanApplied', status: 'True', lastTransitionTime: at(3)
    });
  }
  if (spec.deleting && deletingAt) {
    const hadNode = linked;

    if (hadNode) {
      conditions.push({
        type: 'PreDrainDeleteHookSucceeded', status: 'True', lastTransitionTime: deletingAt
      });
      conditions.push(spec.deleting.blockedBy === 'drain' ? {
        type: 'DrainingSucceeded', status: 'False', severity: 'Info', reason: 'Draining', message: 'Draining the node before deletion', lastTransitionTime: deletingAt
      } : {
        type: 'DrainingSucceeded', status: 'True', lastTransitionTime: rfc3339(parseTime(deletingAt) + 9000)
      });
    }
    if (spec.deleting.blockedBy === 'etcd-hook') {
      conditions.push({
        type: 'PreTerminateDeleteHookSucceeded', status: 'False', severity: 'Info', reason: 'WaitingExternalHook', lastTransitionTime: rfc3339(parseTime(deletingAt) + 9000)
      });
    } else if (spec.deleting.blockedBy === 'finalizer') {
      conditions.push({
        type: 'PreTerminateDeleteHookSucceeded', status: 'True', lastTransitionTime: rfc3339(parseTime(deletingAt) + 9000)
      });
    }
  }

  let phase: MachinePhase;

  if (spec.deleting) phase = 'Deleting';
  else if (failureReason) phase = 'Failed';
  else if (!infraReady) phase = 'Provisioning';
  else if (!linked) phase = 'Provisioned';
  else phase = 'Running';

  const nodeInfo = node?.status.nodeInfo ?? (linked ? nodeSystemInfo({
    name: nodeName, kubernetesVersion: ctx.kubernetesVersion, os, osImage: spec.osImage, kernelVersion: spec.kernelVersion
  }) : undefined);
  const addresses: NodeAddress[] | undefined = infraReady ? [{ type: 'InternalIP', address: internalAddress }, ...(spec.address !== internalAddress ? [{ type: 'ExternalIP' as const, address: spec.address }] : []), { type: 'Hostname', address: spec.hostname }] : undefined;
  // the etcd hook is cleared once the machine has no node ref or etcd let it go
  const hook = Boolean(spec.roles.etcd) && !(spec.deleting && !linked);

  const machine = capiMachine({
    name:              machineName,
    namespace:         ns,
    clusterName:       ctx.name,
    createdAt,
    deletionTimestamp: deletingAt,
    roles:             spec.roles,
    os,
    machineId,
    nodeNameLabel:     spec.nodeNameLabel,
    machineDeployment: poolDeployment,
    bootstrapName:     machineName,
    infrastructure:    {
      apiVersion: infraApiVersion, kind: infraKind, name: machineName
    },
    kubernetesVersion: ctx.kubernetesVersion,
    providerID,
    nodeRef:           linked ? { name: nodeName, uid: nodeUid } : undefined,
    nodeInfo,
    addresses,
    phase,
    conditions,
    failureReason,
    failureMessage,
    preTerminateHook:  hook,
    lastUpdated:       deletingAt ?? (linked ? at(6) : at(1)),
  });

  const bootstrap = rkeBootstrap({
    name:            machineName,
    namespace:       ns,
    clusterName:     ctx.name,
    machineName,
    createdAt,
    roles:           spec.roles,
    etcdForceRemove: spec.etcdForceRemove,
  });

  let infraMachine: KubeObject | undefined;

  if (infraState !== 'deleted') {
    infraMachine = ctx.kind === 'node-driver' ? vsphereMachine({
      name:              machineName,
      namespace:         ns,
      clusterName:       ctx.name,
      machineDeployment: poolDeployment ?? `${ ctx.name }-pool1`,
      createdAt,
      os,
      providerID,
      addresses,
      ready:             infraReady,
      errorMessage:      infraState === 'vm-missing' ? vmMissingMessage : undefined,
      errorSince:        infraState === 'vm-missing' ? before('3h') : undefined,
      deletionTimestamp: undefined,
    }) : customMachine({
      name: machineName, namespace: ns, clusterName: ctx.name, createdAt, providerID
    });
  }

  let mgmtNode: KubeObject | undefined;

  if (node && !spec.noManagementNode) {
    mgmtNode = managementNode({
      mgmtId:            ctx.mgmtId,
      createdAt:         minutesAfterCreate(5),
      node,
      requestedHostname: node.metadata.name,
      roles:             spec.roles,
    });
  }

  const credentials = spec.agentCredentials ? agentCredentials({
    machineName, namespace: ns, createdAt, secretMarker: ctx.secretMarker
  }) : undefined;

  const local: KubeObject[] = [machine, bootstrap];

  if (infraMachine) local.push(infraMachine);
  if (planSecret) local.push(planSecret);
  if (credentials) local.push(...credentials);
  if (mgmtNode) local.push(mgmtNode);

  return {
    spec,
    machineName,
    nodeName,
    tier:           tierOf(spec, extras.initNode),
    plannerMessage,
    machine,
    planSecret,
    bootstrap,
    infraMachine,
    managementNode: mgmtNode,
    node,
    credentials,
    local,
    downstream:     node ? [node] : [],
  };
}

/** Mirrors rancher's atMostThree + detailMessage: sorted names, "and N more", detail only for one machine. */
export function plannerClusterMessage(nodes: Pick<BuiltNode, 'machineName' | 'tier' | 'plannerMessage'>[]): string {
  const tiers: BuiltNode['tier'][] = ['bootstrap', 'etcd', 'control plane', 'worker'];

  for (const tier of tiers) {
    const waiting = nodes.filter((n) => n.tier === tier && n.plannerMessage);

    if (!waiting.length) continue;
    const names = waiting.map((n) => n.machineName).sort();
    const list = names.length > 3 ? `${ names.slice(0, 3).join(',') } and ${ names.length - 3 } more` : names.join(',');
    const detail = waiting.length === 1 ? `: ${ waiting[0].plannerMessage }` : '';

    return `configuring ${ tier } node(s) ${ list }${ detail }`;
  }

  return '';
}

/** A Node in the downstream cluster with no Machine behind it. */
export interface LooseNodeSpec {
  name: string;
  roles: Roles;
  os?: OperatingSystem;
  osImage?: string;
  address: string;
  createdAgo: Duration;
  /** the Machine it was created for (now deleted): label and annotations point at it */
  formerMachine?: { name: string; uid?: string };
  notReady?: { status: 'False' | 'Unknown'; reason?: string; message?: string; since: Duration };
  memoryKi?: number;
  managementNode?: boolean;
  imported?: boolean;
  /** false: the Node itself is gone from the downstream cluster; only Rancher's management Node is left */
  downstream?: boolean;
}

export interface ClusterBuild {
  name: string;
  namespace?: string;
  mgmtId: string;
  kind: ClusterKind;
  kubernetesVersion: string;
  now: string;
  createdAgo: Duration;
  serverUrl?: string;
  secretMarker?: string;
  nodes: NodeSpec[];
  looseNodes?: LooseNodeSpec[];
  /** overrides the planner-derived Updated/Provisioned message */
  waitingMessage?: string;
  /** the message is the planner's error (False/Error), not a wait */
  waitingFailed?: boolean;
  waitingSince?: Duration;
  /** spec.rkeConfig.rotateCertificates.generation (whether it is done is the RKEControlPlane's status, and the planner's message) */
  rotateCertificates?: { generation: number };
  planStateKeys?: boolean;
  machinePools?: MachinePoolSpec[];
  clusterAnnotations?: Labels;
  /** the CAPI Cluster Rancher made for it (every provisioned cluster has one) */
  capiCluster?: { paused?: boolean; pausedAgo?: Duration; annotations?: Labels };
}

/** A node-driver machine pool as the provisioning cluster declares it, with its Auto Replace settings. */
export interface MachinePoolSpec {
  name: string;
  quantity: number;
  roles: Roles;
  os?: OperatingSystem;
  unhealthyNodeTimeout?: string;
  maxUnhealthy?: string;
  unhealthyRange?: string;
  /** the health check's verdict on the pool, as its controller wrote it */
  remediation?: { allowed: boolean; message?: string; ago: Duration };
}

export interface BuiltCluster {
  cluster: ScenarioCluster;
  context: ClusterContext;
  nodes: BuiltNode[];
  local: KubeObject[];
  downstream: KubeObject[];
  waitingMessage: string;
}

function buildLooseNode(ctx: ClusterContext, spec: LooseNodeSpec): { node: NodeObject; mgmt?: KubeObject } {
  const createdAt = ago(ctx.now, spec.createdAgo);
  const former = spec.formerMachine;
  const node = downstreamNode({
    name:              spec.name,
    createdAt,
    kubernetesVersion: ctx.kubernetesVersion,
    roles:             spec.roles,
    os:                spec.os,
    osImage:           spec.osImage,
    address:           spec.address,
    memoryKi:          spec.memoryKi,
    machineUid:        former ? (former.uid ?? uidFor('Machine', ctx.namespace, former.name)) : undefined,
    capiMachine:       former ? {
      name: former.name, clusterName: ctx.name, namespace: ctx.namespace
    } : undefined,
    providerID:        ctx.kind === 'imported' ? undefined : `${ runtimeOf(ctx.kubernetesVersion) }://${ spec.name }`,
    ready:             spec.notReady ? {
      status: spec.notReady.status, reason: spec.notReady.reason, message: spec.notReady.message, since: ago(ctx.now, spec.notReady.since)
    } : { status: 'True', since: rfc3339(parseTime(createdAt) + 60_000) },
    heartbeat: ago(ctx.now, stableInt(`hb:${ spec.name }`, 5, 50)),
  });
  const mgmt = spec.managementNode === false ? undefined : managementNode({
    mgmtId:            ctx.mgmtId,
    createdAt:         rfc3339(parseTime(createdAt) + 60_000),
    node,
    requestedHostname: spec.name,
    roles:             spec.roles,
    imported:          spec.imported ?? ctx.kind === 'imported',
  });

  return { node, mgmt };
}

/**
 * A whole cluster: provisioning and management Cluster, registration token, and every node's
 * objects, with the init node, join URLs and the planner's cluster message worked out.
 */
export function buildCluster(b: ClusterBuild): BuiltCluster {
  const namespace = b.namespace ?? DEFAULT_NAMESPACE;
  const secretMarker = b.secretMarker ?? DEFAULT_SECRET_MARKER;
  const ctx: ClusterContext = {
    name:              b.name,
    namespace,
    mgmtId:            b.mgmtId,
    kind:              b.kind,
    kubernetesVersion: b.kubernetesVersion,
    now:               b.now,
    serverUrl:         b.serverUrl ?? DEFAULT_SERVER_URL,
    secretMarker,
    joinToken:         joinToken(b.mgmtId, secretMarker),
    planStateKeys:     b.planStateKeys,
  };
  const createdAt = ago(b.now, b.createdAgo);

  const initIndex = b.nodes.findIndex((n) => n.roles.etcd);
  const initSpec = initIndex >= 0 ? b.nodes[initIndex] : undefined;
  const joinUrlByHost = new Map<string, string>();

  for (const n of b.nodes) {
    if (n.roles.etcd || n.roles.controlPlane) {
      joinUrlByHost.set(n.hostname, joinUrlFor(n.internalAddress ?? n.address, b.kubernetesVersion));
    }
  }
  const defaultJoin = initSpec ? joinUrlByHost.get(initSpec.hostname) : undefined;

  const nodes = b.nodes.map((spec, i) => buildNode(ctx, spec, {
    initNode:    i === initIndex,
    joinedToUrl: spec.joinedTo ? joinUrlByHost.get(spec.joinedTo) : defaultJoin,
  }));

  const derived = b.kind === 'imported' ? '' : plannerClusterMessage(nodes);
  const waitingMessage = b.waitingMessage ?? derived;
  const loose = (b.looseNodes ?? []).map((l) => buildLooseNode(ctx, l));
  const nodeCount = nodes.filter((n) => n.node).length + loose.length;

  const local: KubeObject[] = [
    provisioningCluster({
      name:                                b.name,
      namespace,
      mgmtId:                              b.mgmtId,
      kind:                                b.kind,
      createdAt,
      kubernetesVersion:                   b.kind === 'imported' ? undefined : b.kubernetesVersion,
      waitingMessage:                      waitingMessage || undefined,
      waitingFailed:                       b.waitingFailed,
      waitingSince:                        b.waitingSince !== undefined ? ago(b.now, b.waitingSince) : undefined,
      rotateCertificatesGeneration:        b.rotateCertificates?.generation,
      machinePools:                        b.machinePools,
      annotations:                         b.clusterAnnotations,
    }),
    managementCluster({
      mgmtId:                  b.mgmtId,
      displayName:             b.name,
      namespace,
      kind:                    b.kind,
      createdAt,
      kubernetesVersion:       b.kubernetesVersion,
      nodeCount,
      provisioningClusterName: b.name,
    }),
    clusterRegistrationToken({
      mgmtId:     b.mgmtId,
      createdAt:  rfc3339(parseTime(createdAt) + 5000),
      serverUrl:  ctx.serverUrl,
      secretMarker,
      caChecksum: sha256Hex(`rancher-ca:${ ctx.serverUrl }`),
    }),
  ];

  if (b.kind !== 'imported') {
    local.push(capiCluster({
      name:        b.name,
      namespace,
      createdAt,
      paused:      b.capiCluster?.paused,
      pausedAt:    b.capiCluster?.pausedAgo ? ago(b.now, b.capiCluster.pausedAgo) : undefined,
      annotations: b.capiCluster?.annotations,
    }));
    const byDeployment = new Map<string, MachineV1beta1[]>();

    for (const n of nodes) {
      const md = n.machine.metadata.labels?.['cluster.x-k8s.io/deployment-name'];

      if (md) byDeployment.set(md, [...(byDeployment.get(md) ?? []), n.machine]);
    }
    for (const [md, machines] of byDeployment) {
      const pool = b.machinePools?.find((p) => `${ b.name }-${ p.name }` === md);

      local.push(...poolObjects({
        clusterName:          b.name,
        namespace,
        machineDeployment:    md,
        createdAt,
        machines,
        unhealthyNodeTimeout: pool?.unhealthyNodeTimeout,
        maxUnhealthy:         pool?.maxUnhealthy,
        unhealthyRange:       pool?.unhealthyRange,
        remediation:          pool?.remediation ? { ...pool.remediation, at: ago(b.now, pool.remediation.ago) } : undefined,
      }));
    }
  }
  for (const n of nodes) local.push(...n.local);
  for (const l of loose) if (l.mgmt) local.push(l.mgmt);
  const downstream: KubeObject[] = [...nodes.flatMap((n) => n.downstream), ...loose.filter((l, i) => b.looseNodes?.[i].downstream !== false).map((l) => l.node)];

  return {
    cluster: {
      name: b.name, namespace, mgmtId: b.mgmtId, kind: b.kind, kubernetesVersion: b.kubernetesVersion
    },
    context: ctx,
    nodes,
    local,
    downstream,
    waitingMessage,
  };
}
