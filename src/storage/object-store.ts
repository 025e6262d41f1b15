/** Object storage for brand logos: an S3 bucket (AWS or any S3-compatible server). */
import type { S3Config } from '../config.js';
import { lazy } from '../lazy.js';

export interface ObjectStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Stable public URL of the object. */
  publicUrl(key: string): string;
}

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export function createObjectStore(config: S3Config | null): ObjectStore | null {
  if (!config) return null;
  const s3 = lazy(async () => {
    const { DeleteObjectCommand, PutObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
      // S3-compatible servers do not all speak the newer default checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { client, DeleteObjectCommand, PutObjectCommand };
  });
  const base = (() => {
    if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, '');
    if (config.endpoint) {
      const endpoint = new URL(config.endpoint);
      const root = `${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}`;
      return config.forcePathStyle ? `${root}/${config.bucket}` : `${endpoint.protocol}//${config.bucket}.${endpoint.host}`;
    }
    return `https://${config.bucket}.s3.${config.region}.amazonaws.com`;
  })();
  return {
    async put(key, body, contentType) {
      const { client, PutObjectCommand } = await s3();
      await client.send(new PutObjectCommand({ Bucket: config.bucket, Key: key, Body: body, ContentType: contentType, CacheControl: 'public, max-age=300' }));
    },
    async delete(key) {
      const { client, DeleteObjectCommand } = await s3();
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key }));
    },
    publicUrl: (key) => `${base}/${encodeKey(key)}`,
  };
}
