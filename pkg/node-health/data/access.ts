/**
 * Whether a list Steve returned is all there is. Steve answers a list with the objects the user may read and says
 * nothing of others (a Role may grant some secrets of a namespace by name), so a list is known complete only when
 * Kubernetes says the user may list the whole resource there: a SelfSubjectAccessReview, asked once per resource
 * and namespace for the tab's life (through Rancher's proxy of the cluster's API). When the answer is no, or cannot
 * be had, what is not in the list may still exist.
 */
import type { ListAccess } from './requests';
import type { Dispatch } from './types';

const REVIEWS = 'apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

/** Per resource: true when the user may list all of it, false when not or when it cannot be told. */
export type AccessReviews = (access: ListAccess) => Promise<boolean>;

function reviewUrl(access: ListAccess): string {
  return access.cluster ? `/k8s/clusters/${ encodeURIComponent(access.cluster) }/${ REVIEWS }` : `/${ REVIEWS }`;
}

export function accessReviews(dispatch: Dispatch): AccessReviews {
  const answers = new Map<string, Promise<boolean>>();

  return (access) => {
    const key = JSON.stringify([access.cluster, access.group, access.resource, access.namespace ?? null]);
    let answer = answers.get(key);

    if (!answer) {
      answer = dispatch('management/request', {
        url:                  reviewUrl(access),
        method:               'POST',
        redirectUnauthorized: false,
        data:                 {
          apiVersion: 'authorization.k8s.io/v1',
          kind:       'SelfSubjectAccessReview',
          spec:       {
            resourceAttributes: {
              verb: 'list', group: access.group, resource: access.resource, ...(access.namespace ? { namespace: access.namespace } : {})
            },
          },
        },
      }).then((review) => review?.status?.allowed === true, () => {
        // Not known this time: asked again on the next load.
        answers.delete(key);

        return false;
      });
      answers.set(key, answer);
    }

    return answer;
  };
}
