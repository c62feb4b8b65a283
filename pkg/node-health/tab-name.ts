/** The Node Health tab's name: its tab button and the URL hash (`#node-health`) that opens a cluster's page on it. */
export const NODE_HEALTH_TAB_NAME = 'node-health';
