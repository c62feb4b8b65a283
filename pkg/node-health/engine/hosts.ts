/**
 * Which records are the same host. The join links a machine to its Node only by the keys Rancher itself uses
 * (the machine's uid label, nodeRef, Cluster API's annotation), so a host whose Node lost its machine, or whose
 * machine never got its Node, shows as two records: a ghost machine and an orphan Node, a machine waiting for
 * its node ref and the Node its host registered under another name. Here such records are related by what
 * identifies a host, whichever object carries it:
 *
 * - the agent's id: the Machine's rke.cattle.io/machine-id label, a host report's cattle-id;
 * - the firmware's system UUID and the OS machine id, which kubelet reports in nodeInfo (Cluster API copies it
 *   to the Machine);
 * - the providerID, on the Machine and on the Node;
 * - what a host report read on the host says of itself: the agent there serves this record's plan secret (its
 *   connection info), and the host and node name it reports are another record's Node;
 * - an address: the plan secret's rke.cattle.io/address and internal-address (the node IP the plan is written
 *   for) and its own join URL, the Machine's, the infrastructure machine's and the Node's status.addresses;
 * - a host name, which only supports an address: two hosts of one name are the duplicate-node-name case.
 *
 * Ids make two records the same host ("certain"), an address makes it "likely". Nothing relates records of two
 * clusters (private addresses and host names repeat across sites), a loopback, link-local or unspecified address
 * is no one's, and a value that two records with a Ready Node both carry (a NAT's external address, a VM template's
 * machine id) identifies no host: two kubelets posting Ready are two hosts.
 *
 * Only records that lack a part (a machine without its Node, a Node, management Node or plan secret without a
 * machine) are indexed; every other record of their cluster is only looked up, so a healthy cluster costs one
 * pass over its records.
 */
export { identifyingAddress } from './hosts/signals';
export {
  NO_RELATIONS, sameHostWith, withSharedEvidence
} from './hosts/relations';
export { relateHosts } from './hosts/same-host';
export { relateNamed } from './hosts/named';
