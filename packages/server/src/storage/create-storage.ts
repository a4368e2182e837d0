/** Picks the storage engine from the settings: S3 when S3_BUCKET is set, else the local folder under DATA_DIR. */
import { createHmac } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

export function createStorage(config: Config): Storage {
  if (config.S3_BUCKET) {
    return new S3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      publicBaseUrl: config.CDN_BASE_URL,
    });
  }
  return new LocalStorage({
    root: path.join(config.dataDir, 'files'),
    publicUrl: config.publicUrl,
    signingSecret: createHmac('sha256', config.jwtSecret).update('storage-signing').digest('hex'),
  });
}
