/**
 * The client-side guard for machine-plan secrets. The request already asks Steve for the status keys
 * only; this runs on every answer before anything else sees it, so that a Steve that ignored
 * `include`/`exclude`, a proxy that dropped them, or a secret of another type that matched the selector
 * still leaves nothing sensitive in the browser's memory beyond this function.
 */
import { LAST_APPLIED_ANNOTATION, isPlainObject, splitPlanSecretData } from '../engine';
import type { KubeObject } from '../engine';

/** kubectl apply keeps the whole object, data included, in this annotation. */
/** A copy of a Steve secret with only whitelisted data keys, no stringData, and no copy of itself in metadata. */
export function sanitizePlanSecret(input: unknown): KubeObject {
  const secret = isPlainObject(input) ? input : {};
  const out: KubeObject = {};

  for (const [key, value] of Object.entries(secret)) {
    if (key === 'data' || key === 'stringData') {
      continue;
    }
    out[key] = value;
  }

  if (isPlainObject(secret.data)) {
    out.data = splitPlanSecretData(secret.data).kept;
  }

  if (isPlainObject(secret.metadata)) {
    const metadata: Record<string, unknown> = { ...secret.metadata };

    delete metadata.managedFields;
    if (isPlainObject(metadata.annotations) && LAST_APPLIED_ANNOTATION in metadata.annotations) {
      const annotations = { ...metadata.annotations };

      delete annotations[LAST_APPLIED_ANNOTATION];
      metadata.annotations = annotations;
    }
    out.metadata = metadata;
  }

  return out;
}
