/**
 * The upload bucket's own rules, in plain TypeScript (no SST globals) so that both the stack
 * (infra/document-uploads.ts) and the local S3 of `npm run start:cloud` (infra/local-cloud.ts)
 * apply the same ones.
 */

/** Days an uploaded file may wait for its batch to be confirmed (and ingested) before S3 deletes it. */
export const UNCONFIRMED_UPLOAD_DAYS = 1;

/** Where upload slots put files (`uploads/<user>/<batch>/<position>`): the lifecycle rule's scope. */
export const UNCONFIRMED_UPLOADS_PREFIX = 'uploads/';

/**
 * Browsers (the console) POST files straight to the bucket: presigned POST needs POST and the
 * form's own fields, nothing else. The policy in each slot is what limits an upload, so any
 * origin may send one, as with the API (infra/console.ts).
 */
export const UPLOAD_CORS = {
  allowOrigins: ['*'],
  allowMethods: ['POST'],
  allowHeaders: ['*'],
  exposeHeaders: ['etag'],
  maxAge: '1 hour',
} as const;
