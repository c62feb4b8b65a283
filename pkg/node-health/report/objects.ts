/**
 * The object a piece of evidence or a timeline entry names, in the reader's language. The engine names objects by
 * their Kubernetes kind ("Machine fleet-default/custom-1"), which stays as kubectl says it, but Rancher's management
 * Node by the chain's words ("Rancher node c-m-…/machine-…"): those are said as the chain says them in that language.
 */
import { MGMT_NODE_LABEL } from '../engine';
import type { Translate } from './translate';

const MGMT_NODE_PREFIX = `${ MGMT_NODE_LABEL } `;

export function sayObject(label: string, t: Translate): string {
  const mgmtNode = label === MGMT_NODE_LABEL || label.startsWith(MGMT_NODE_PREFIX);

  // The kind's words replaced, the name after them kept as it is.
  return mgmtNode ? `${ t('nodeHealth.chain.kind.mgmtNode') }${ label.slice(MGMT_NODE_LABEL.length) }` : label;
}
