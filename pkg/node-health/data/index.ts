/** The Node Health tab's data layer: loading through the store, diagnosis, rows and filters. No Vue. */
export * from './types';
export { loadClusterData } from './load';
export type { ListCache, LoadOptions } from './load';
export {
  PLAN_SECRET_SENSITIVE_KEYS, initialRequests, expectedInfraKinds, infraKindsOf, infraMachinesRequest, infraType, machinesRequest, planSecretsRequest,
  bootstrapsRequest, mgmtNodesRequest, nodesRequest
} from './requests';
export type {
  PlannedRequest, InfraKind, ListAccess, ListForm
} from './requests';
export { accessReviews } from './access';
export type { AccessReviews } from './access';
export { listFormOf } from './steve-mode';
export { sanitizePlanSecret } from './sanitize';
export { storeChanges, storeLists } from './store-lists';
export type {
  StoreChanges, StoreCopies, StoreGetters, StoreInput, StoreLists
} from './store-lists';
export { TabSession } from './session';
export type { RefreshRequest, TabView } from './session';
export { openSession } from './session-client';
export type {
  OpenSessionOptions, SessionClient, WorkerLike
} from './session-client';
export { startNodeHealthWorker } from './worker-start';
export { csrfFromCookies, fetchDispatch } from './fetch-dispatch';
export type { FetchLike } from './fetch-dispatch';
export { ChangeWatch, watchedListOf } from './changes';
export type {
  OpenSocket, SocketLike, WatchedList
} from './changes';
export { describeFailure, kindForStatus } from './errors';
export { clusterTarget } from './target';
// The diagnosis input and the view-model, whole.
export * from './input';
export * from './rows';
export {
  pendingMachines, pendingRow, PendingRows
} from './pending-rows';
export {
  PART_SIZE, SCAN_CHECK, SLICE_MS, StoreSync, SyncedLists
} from './store-sync';
export type { StorePart, SyncedInput } from './store-sync';
export {
  FIRST_QUERY, RowStore, sortedRows, titleId
} from './row-query';
export type {
  FindingTitle, RowArrangement, RowPage, RowQuery
} from './row-query';
export type { Translate } from '../engine';
export {
  diagnoseLoad, fatalIssue, unavailableNotices, errorKey
} from './outcome';
export type { UnavailableNotice } from './outcome';
export {
  actionOffers, evidenceValue, durationSince, LINK_STATE_COLORS
} from './detail';
export type { ActionOffer } from './detail';
export { sayDurationMs, withLocalArgs } from '../report/durations';
export { chainLinkLocation } from './links';
export type { RouteLocation } from './links';
export {
  createPoller, pollInterval, POLL_INTERVAL_MS, IDLE_TO_BUSY
} from './poller';
export { startBusyMeter } from './busy-time';
export type { BusyMeter } from './busy-time';
export type { Poller, PollerOptions } from './poller';
export { openedOnTab, watchVisibility } from './visibility';
export {
  browserSessionStore, decodeUpload, hostReportsKey, loadSessionHostReports, mergeHostReports, readHostReportText, saveSessionHostReports, MAX_HOST_REPORT_BYTES
} from './host-reports';
export type { ReadOutcome } from './host-reports';
export {
  eventRequests, jobRequests, loadTimelineInputs, podLogUrl, INFRA_MACHINE_NAME_LABEL, INFRA_REMOVE_LABEL, JOB_CONTAINER
} from './timeline';
export type { TimelineLoad, TimelineRequester } from './timeline';
