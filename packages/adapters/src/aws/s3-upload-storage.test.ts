import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, NotFound, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createS3UploadStorage } from './s3-upload-storage';

const s3 = mockClient(S3Client);
const client = () => new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
const key = 'uploads/3f1c1d2e-0000-4000-8000-000000000001/3f1c1d2e-0000-4000-8000-000000000002/0';

describe('S3 upload storage', () => {
  beforeEach(() => s3.reset());

  it('signs a presigned POST fixing key, exact size, content type and expiry', async () => {
    const expiresAt = new Date(Date.now() + 15 * 60 * 1000);
    const target = await createS3UploadStorage('dbops-uploads', client()).createTarget({
      key,
      token: 't',
      sizeBytes: 1234,
      contentType: 'application/pdf',
      expiresAt,
    });
    expect(target.method).toBe('POST');
    expect(target.url).toContain('dbops-uploads');
    expect(target.fields).toMatchObject({ key, 'Content-Type': 'application/pdf', 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' });
    const policy = JSON.parse(Buffer.from(target.fields.Policy!, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] };
    expect(policy.conditions).toContainEqual(['content-length-range', 1234, 1234]);
    expect(policy.conditions).toContainEqual(['eq', '$Content-Type', 'application/pdf']);
    expect(policy.conditions).toContainEqual({ key });
    expect(policy.conditions).toContainEqual({ bucket: 'dbops-uploads' });
    // Expires with the slot (to the second), not later.
    expect(Math.abs(new Date(policy.expiration).getTime() - expiresAt.getTime())).toBeLessThan(2000);
  });

  it('reads an uploaded object, and reports a missing one as absent', async () => {
    s3.on(GetObjectCommand, { Bucket: 'dbops-uploads', Key: key }).resolves({
      Body: { transformToByteArray: async () => new Uint8Array(Buffer.from('# hello')) } as never,
    });
    s3.on(GetObjectCommand, { Key: 'uploads/missing' }).rejects(new NoSuchKey({ message: 'no', $metadata: {} }));
    const storage = createS3UploadStorage('dbops-uploads', client());
    expect(Buffer.from((await storage.read(key))!).toString()).toBe('# hello');
    expect(await storage.read('uploads/missing')).toBeUndefined();
  });

  it('checks existence with HeadObject; other failures are not taken for absence', async () => {
    s3.on(HeadObjectCommand, { Key: key }).resolves({ ContentLength: 7 });
    s3.on(HeadObjectCommand, { Key: 'uploads/missing' }).rejects(new NotFound({ message: 'no', $metadata: { httpStatusCode: 404 } }));
    s3.on(HeadObjectCommand, { Key: 'uploads/denied' }).rejects(Object.assign(new Error('AccessDenied'), { $metadata: { httpStatusCode: 403 } }));
    const storage = createS3UploadStorage('dbops-uploads', client());
    expect(await storage.exists(key)).toBe(true);
    expect(await storage.exists('uploads/missing')).toBe(false);
    await expect(storage.exists('uploads/denied')).rejects.toThrow('AccessDenied');
  });

  it('deletes objects in batches of at most 1,000 keys', async () => {
    s3.on(DeleteObjectsCommand).resolves({});
    const keys = Array.from({ length: 1500 }, (_, i) => `uploads/x/${i}`);
    await createS3UploadStorage('dbops-uploads', client()).remove(keys);
    const calls = s3.commandCalls(DeleteObjectsCommand);
    expect(calls.map((c) => c.args[0].input.Delete!.Objects!.length)).toEqual([1000, 500]);
    expect(calls[0]!.args[0].input).toMatchObject({ Bucket: 'dbops-uploads', Delete: { Quiet: true } });
    await createS3UploadStorage('dbops-uploads', client()).remove([]);
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(2);
  });
});
