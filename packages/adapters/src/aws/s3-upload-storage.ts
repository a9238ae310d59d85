import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, NotFound, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { UploadStorage } from '@dbops/core/documents';

const isMissing = (error: unknown): boolean =>
  error instanceof NoSuchKey || error instanceof NotFound || (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;

/**
 * The adapter's S3 client: AWS's regional endpoint, or another S3-compatible endpoint addressed
 * path-style (`<endpoint>/<bucket>/<key>`, as the local S3 of `npm run start:cloud` serves it).
 * Region and credentials come from the function's environment, as on Lambda.
 */
export function createS3Client(endpoint?: string): S3Client {
  return new S3Client(endpoint ? { endpoint, forcePathStyle: true } : {});
}

/**
 * S3 behind the UploadStorage port. A slot is a presigned POST whose policy S3 enforces where the
 * bytes land: exactly this key, exactly the declared size (`content-length-range`), exactly the
 * declared Content-Type, and the slot's expiry. The console uploads from the browser, so the
 * bucket's CORS allows POST from its origin (infra/document-uploads.ts). Objects of batches
 * never confirmed are deleted by the bucket's lifecycle rule.
 */
export function createS3UploadStorage(bucket: string, client: S3Client = createS3Client()): UploadStorage {
  return {
    name: 's3',
    async createTarget(slot) {
      const expires = Math.max(1, Math.floor((slot.expiresAt.getTime() - Date.now()) / 1000));
      const post = await createPresignedPost(client, {
        Bucket: bucket,
        Key: slot.key,
        Conditions: [
          ['content-length-range', slot.sizeBytes, slot.sizeBytes],
          ['eq', '$Content-Type', slot.contentType],
        ],
        Fields: { 'Content-Type': slot.contentType },
        Expires: expires,
      });
      return { method: 'POST', url: post.url, headers: {}, fields: post.fields };
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async read(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return res.Body ? await res.Body.transformToByteArray() : undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async remove(keys) {
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        if (batch.length > 0) await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      }
    },
  };
}
