import { describeActionError, failureDetail, failureStatus } from '@pkg/node-health/actions';

/** What the dashboard store rejects with when a response arrived: the body, with the status alongside. */
function storeRejection(status: number, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };

  Object.defineProperty(out, '_status', { value: status });

  return out;
}

/** What it rejects with when none did: the axios error itself. */
function networkError(): Error {
  return Object.assign(new Error('Network Error'), {
    code: 'ERR_NETWORK', isAxiosError: true, request: {}
  });
}

const TEST_FAILED = {
  type: 'error', status: 422, code: 'Invalid', message: 'the server rejected our request due to an error in our request'
};

describe('describeActionError', () => {
  it('reads the status from the store\'s rejection, an axios response or the body', () => {
    expect(failureStatus(storeRejection(403, { message: 'x' }))).toBe(403);
    expect(failureStatus({ response: { status: 502 } })).toBe(502);
    expect(failureStatus({
      kind: 'Status', code: 409, message: 'conflict'
    })).toBe(409);
    expect(failureStatus(networkError())).toBeNull();
  });

  it('401: the session ended, nothing changed', () => {
    const f = describeActionError(storeRejection(401, { message: 'Unauthorized 401: must authenticate' }));

    expect(f).toMatchObject({
      kind: 'unauthorized', status: 401, result: 'failed', nothingChanged: true, offerReview: false, countsAsDone: false
    });
    expect(f.message).toEqual({ key: 'nodeHealth.actions.error.unauthorized', args: { status: 401 } });
  });

  it('403: refused, nothing changed, no review offered', () => {
    expect(describeActionError(storeRejection(403, { message: 'machines.cluster.x-k8s.io "m" is forbidden: User "u-1" cannot patch resource' }))).toMatchObject({
      kind: 'forbidden', result: 'failed', nothingChanged: true, offerReview: false, serverMessage: 'machines.cluster.x-k8s.io "m" is forbidden: User "u-1" cannot patch resource'
    });
  });

  it('404: already gone, counted as done', () => {
    expect(describeActionError(storeRejection(404, { message: 'not found' }))).toMatchObject({
      kind: 'gone', result: 'already-gone', countsAsDone: true, offerReview: false
    });
  });

  it.each([
    [422, TEST_FAILED],
    [409, {
      kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409, message: 'Operation cannot be fulfilled: the object has been modified'
    }],
  ])('%s: changed meanwhile, nothing removed, review offered', (status, body) => {
    expect(describeActionError(storeRejection(status, body))).toMatchObject({
      kind: 'conflict', status, result: 'conflict', nothingChanged: true, offerReview: true, countsAsDone: false
    });
  });

  it('an admission webhook\'s refusal is not a conflict: reviewing again would not help', () => {
    const f = describeActionError(storeRejection(422, { message: 'admission webhook "rancher.cattle.io.machines" denied the request: no' }));

    expect(f).toMatchObject({
      kind: 'denied', result: 'failed', offerReview: false, nothingChanged: true
    });
  });

  it.each([500, 502, 503, 504])('%s: the server failed, the outcome is uncertain, review offered', (status) => {
    expect(describeActionError(storeRejection(status, { data: '<html><body>Bad Gateway</body></html>' }))).toMatchObject({
      kind: 'server', status, result: 'failed', nothingChanged: false, offerReview: true, serverMessage: null
    });
  });

  it('network loss: no status, the outcome is uncertain, review offered', () => {
    expect(describeActionError(networkError())).toMatchObject({
      kind: 'network', status: null, result: 'failed', nothingChanged: false, offerReview: true, serverMessage: null
    });
    expect(describeActionError(networkError()).message).toEqual({ key: 'nodeHealth.actions.error.network', args: { status: '-' } });
  });

  it('400: rejected as malformed, nothing changed', () => {
    expect(describeActionError(storeRejection(400, { message: 'bad patch' }))).toMatchObject({
      kind: 'invalid', nothingChanged: true, offerReview: false
    });
  });

  it('anything else is unknown and offers a review', () => {
    expect(describeActionError(new Error('boom'))).toMatchObject({
      kind: 'unknown', status: null, offerReview: true, serverMessage: 'boom'
    });
    expect(describeActionError(undefined)).toMatchObject({ kind: 'unknown', serverMessage: null });
  });

  it('keeps the server\'s message to one bounded line', () => {
    const f = describeActionError(storeRejection(403, { message: `line one\nline two ${ 'x'.repeat(800) }` }));

    expect(f.serverMessage).not.toContain('\n');
    expect(f.serverMessage?.length).toBeLessThanOrEqual(501);
  });

  it('describes a failure for the log by class and status only', () => {
    expect(failureDetail(describeActionError(storeRejection(422, TEST_FAILED)))).toBe('conflict (HTTP 422)');
    expect(failureDetail(describeActionError(networkError()))).toBe('network');
  });
});
