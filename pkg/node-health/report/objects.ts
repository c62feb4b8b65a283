/**
 * The object a piece of evidence or a timeline entry names, in the reader's language. The engine names objects by
 * their Kubernetes kind ("Machine fleet-default/custom-1"), which stays as kubectl says it, but Rancher's management
 * Node by the chain's words ("Rancher node c-m-…/machine-…"): those are said as the chain says them in that language.
 */
import { MGMT_NODE_LABEL } from '../engine';
import type { Translate } from './translate';

const MGMT_NODE_PREFIX = `${ MGMT_NODE_LABEL } `;

export function sayObject(label: string, t: Translate): string {
  if (label === MGMT_NODE_LABEL) {
    return t('nodeHealth.chain.kind.mgmtNode');
  }

  return label.startsWith(MGMT_NODE_PREFIX) ? `${ t('nodeHealth.chain.kind.mgmtNode') } ${ label.slice(MGMT_NODE_PREFIX.length) }` : label;
}
