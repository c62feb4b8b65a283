/**
 * What a node's objects leave behind besides their own status: Kubernetes Events about them (core/v1, as the
 * kubelet, the node lifecycle controller and Cluster API's controllers record them) and Rancher's provisioning
 * jobs for a node-driver machine, with their pods and the pods' logs (rancher pkg/controllers/capr/machineprovision:
 * job and service account `<infrastructure machine>-machine-provision`, labels rke.cattle.io/infra-machine-name,
 * infra-remove, capi-machine-name, container `machine`).
 */
import type { KubeObject } from '../types';
import { meta } from './common';

export interface EventSpec {
  /** The object the Event is about */
  about: KubeObject;
  reason: string;
  message: string;
  type?: 'Normal' | 'Warning';
  /** Who recorded it: kubelet, node-controller, machinehealthcheck-controller, ... */
  component: string;
  host?: string;
  first: string;
  last?: string;
  count?: number;
  /**
   * The uid the recorder wrote into involvedObject: the object's own, except the kubelet's Events about its
   * Node, which carry the Node's name
   */
  uid?: string;
}

export function event(o: EventSpec): KubeObject {
  const about = o.about;
  const name = `${ about.metadata.name }.${ (Date.parse(o.first) / 1000).toString(16) }${ o.reason.length.toString(16) }`;

  return {
    apiVersion:     'v1',
    kind:           'Event',
    metadata:       meta('Event', {
      name, namespace: about.metadata.namespace ?? 'default', createdAt: o.first
    }),
    involvedObject: {
      apiVersion: about.apiVersion, kind: about.kind, name: about.metadata.name, ...(about.metadata.namespace ? { namespace: about.metadata.namespace } : {}), uid: o.uid ?? about.metadata.uid,
    },
    reason:             o.reason,
    message:            o.message,
    source:             { component: o.component, ...(o.host ? { host: o.host } : {}) },
    firstTimestamp:     o.first,
    lastTimestamp:      o.last ?? o.first,
    count:              o.count ?? 1,
    type:               o.type ?? 'Normal',
    reportingComponent: '',
    reportingInstance:  '',
  } as KubeObject;
}

export interface JobSpec {
  infraMachine: KubeObject;
  capiMachine: string;
  /** the delete job; else the create job */
  remove: boolean;
  started: string;
  /** when it finished or gave up; none while it still runs */
  finished?: string;
  failed: boolean;
  /** the pod's log, as the machine driver prints it */
  log: string;
}

/** The job, its last pod, and the pod's log keyed `namespace/pod` (what the embedded Rancher serves as its log). */
export function provisioningJob(o: JobSpec): { objects: KubeObject[]; logs: Record<string, string> } {
  const infra = o.infraMachine;
  const namespace = infra.metadata.namespace as string;
  const jobName = `${ infra.metadata.name }-machine-provision`;
  const labels = {
    'rke.cattle.io/infra-machine-group':   String(infra.apiVersion).split('/')[0],
    'rke.cattle.io/infra-machine-version': String(infra.apiVersion).split('/')[1] ?? 'v1',
    'rke.cattle.io/infra-machine-kind':    String(infra.kind),
    'rke.cattle.io/infra-machine-name':    String(infra.metadata.name),
    'rke.cattle.io/infra-remove':          String(o.remove),
    'rke.cattle.io/capi-machine-name':     o.capiMachine,
  };
  const job = {
    apiVersion: 'batch/v1',
    kind:       'Job',
    metadata:   meta('Job', {
      name: jobName, namespace, createdAt: o.started, labels
    }),
    spec:   { backoffLimit: 0 },
    status: !o.finished ? { startTime: o.started, active: 1 } : o.failed ? {
      startTime:  o.started,
      failed:     1,
      conditions: [{
        type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastProbeTime: o.finished, lastTransitionTime: o.finished
      }],
    } : {
      startTime:      o.started,
      completionTime: o.finished,
      succeeded:      1,
      conditions:     [{
        type: 'Complete', status: 'True', lastProbeTime: o.finished, lastTransitionTime: o.finished
      }]
    },
  } as KubeObject;
  const podName = `${ jobName }-${ (Date.parse(o.started) % 99991).toString(36).padStart(5, 'x').slice(-5) }`;
  const pod = {
    apiVersion: 'v1',
    kind:       'Pod',
    metadata:   meta('Pod', {
      name:      podName,
      namespace,
      createdAt: o.started,
      labels:    {
        ...labels, 'job-name': jobName, 'batch.kubernetes.io/job-name': jobName
      }
    }),
    spec:   {
      restartPolicy: 'Never', containers: [{ name: 'machine', image: 'rancher/machine' }], serviceAccountName: jobName
    },
    status: { phase: !o.finished ? 'Running' : (o.failed ? 'Failed' : 'Succeeded'), startTime: o.started },
  } as KubeObject;

  return { objects: [job, pod], logs: { [`${ namespace }/${ podName }`]: o.log } };
}
