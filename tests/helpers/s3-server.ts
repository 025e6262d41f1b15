/** A real S3-protocol server (s3rver) on loopback, with a bucket, for logo tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../../src/config.js';

export interface TestS3 {
  config: S3Config;
  /** Bytes of an object, read back over the S3 HTTP API; null when absent. */
  read(key: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'qp-logos'): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as unknown as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    config: { bucket, region: 'us-east-1', endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', publicBaseUrl: undefined, forcePathStyle: true },
    async read(key) {
      const res = await fetch(`${endpoint}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`);
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`S3 GET ${key}: ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
