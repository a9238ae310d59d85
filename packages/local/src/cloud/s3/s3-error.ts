import { xmlDocument } from './xml';

/**
 * An error S3 answers with: its HTTP status, its code (`AccessDenied`, `SignatureDoesNotMatch`,
 * `NoSuchKey`, ...) and message, and the detail elements S3 adds for some codes. The SDK maps the
 * code to its exception class (NoSuchKey, NotFound for a HEAD), so codes follow S3's exactly.
 */
export class S3Error extends Error {
  override name = 'S3Error';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail: Record<string, string | number> = {},
  ) {
    super(message);
  }

  /** S3's XML error document. */
  toXml(resource: string, requestId: string): string {
    return xmlDocument('Error', { Code: this.code, Message: this.message, ...this.detail, Resource: resource, RequestId: requestId });
  }
}

/** 403 for anything a policy refuses, worded as S3 words it. */
export const policyRefusal = (why: string): S3Error => new S3Error(403, 'AccessDenied', `Invalid according to Policy: ${why}`);
