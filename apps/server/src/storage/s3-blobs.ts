import path from 'node:path';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { BLOB_NAME } from '@ipp/contracts/constants';
import { FileBlobStore, TYPE_OF, type BlobStore } from './blobs.ts';
import type { BucketObjects } from './s3-orphans.ts';

export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket ('' or ending with '/'). */
  prefix: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
}

/**
 * STORAGE_URL=s3://bucket[/prefix][?endpoint=http://host:port&region=…&path_style=1]. Credentials come from the
 * SDK's usual sources (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profile, instance role). `endpoint` points at any
 * S3-protocol service (MinIO, Ceph, Garage, a cloud's S3 API); with an endpoint, path-style addressing is the default.
 */
export function parseStorageUrl(url: string): S3Location {
  const u = new URL(url);
  if (u.protocol !== 's3:' || u.hostname === '') throw new Error('STORAGE_URL must look like s3://bucket[/prefix]');
  const prefix = u.pathname.replace(/^\/+|\/+$/g, '');
  const endpoint = u.searchParams.get('endpoint') ?? undefined;
  const pathStyle = u.searchParams.get('path_style');
  return {
    bucket: u.hostname,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: u.searchParams.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: pathStyle === null ? endpoint !== undefined : pathStyle === '1' || pathStyle === 'true',
  };
}

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/** Content-addressed images in an S3-protocol bucket: several server processes share one store. */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  constructor(private readonly at: S3Location) {
    this.client = new S3Client({ region: at.region, endpoint: at.endpoint, forcePathStyle: at.forcePathStyle });
  }

  private keyOf(name: string) {
    const match = BLOB_NAME.exec(name);
    if (!match) throw new Error(`not a blob name: ${name}`);
    const hash = match[1] as string;
    return `${this.at.prefix}${hash.slice(0, 2)}/${hash.slice(2, 4)}/${name}`;
  }

  async put(name: string, data: Buffer) {
    // Written even when the bucket has it already (the same image from another station): the rewrite renews its
    // last-modified time, which is what keeps the orphan sweep (s3-orphans.ts) off an image a row is about to name.
    // Images are small and such repeats rare. S3 acknowledges a PUT only once the object is durable.
    await this.client.send(
      new PutObjectCommand({ Bucket: this.at.bucket, Key: this.keyOf(name), Body: data, ContentType: typeOf(name) }),
    );
  }

  /**
   * After the row naming the blob committed: a sweep that deleted it between put() and the commit (it asked the
   * database before the row existed) is undone by writing it again.
   */
  async confirm(name: string, data: Buffer) {
    if ((await this.modified(this.keyOf(name))) === null) await this.put(name, data);
  }

  /** The bucket as the orphan sweep sees it, listed `pageSize` keys a call. */
  objects(pageSize = 1000): BucketObjects {
    const { bucket, prefix } = this.at;
    const client = this.client;
    return {
      async *list() {
        // Version 1 listing, continued from the last key (Marker): every S3-protocol service answers it, where some
        // (s3rver among them) fail to make version 2's continuation tokens.
        let marker: string | undefined;
        for (;;) {
          const page = await client.send(
            new ListObjectsCommand({ Bucket: bucket, Prefix: prefix, Marker: marker, MaxKeys: pageSize }),
          );
          const objects = (page.Contents ?? []).map((o) => ({
            key: o.Key!,
            modified: o.LastModified?.getTime() ?? 0,
            size: o.Size ?? 0,
          }));
          if (objects.length > 0) yield objects;
          if (!page.IsTruncated || objects.length === 0) return;
          marker = objects.at(-1)!.key;
        }
      },
      modified: (key) => this.modified(key),
      copy: (from, to) => this.copy(from, to),
      remove: async (key) => {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      },
    };
  }

  private async modified(Key: string) {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.at.bucket, Key }));
      return head.LastModified?.getTime() ?? 0;
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  /** Server-side copy; false when the source is gone. */
  private async copy(from: string, to: string) {
    const name = from.slice(from.lastIndexOf('/') + 1).replace(/\.sweep$/, '');
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.at.bucket,
          Key: to,
          CopySource: `${this.at.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
          MetadataDirective: 'REPLACE',
          ContentType: typeOf(name),
        }),
      );
      return true;
    } catch (error) {
      if (notFound(error)) return false;
      throw error;
    }
  }

  async get(name: string) {
    if (!BLOB_NAME.test(name)) return null;
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.at.bucket, Key: this.keyOf(name) }));
      const bytes = await res.Body!.transformToByteArray();
      return { data: Buffer.from(bytes), type: typeOf(name) };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  close() {
    this.client.destroy();
  }
}

function typeOf(name: string) {
  const ext = (BLOB_NAME.exec(name)?.[2] ?? '').endsWith('webp') ? 'webp' : (BLOB_NAME.exec(name)?.[2] ?? '');
  return TYPE_OF[ext] ?? 'application/octet-stream';
}

/** The image store of a configuration: S3 when STORAGE_URL is set, else files under DATA_DIR/blobs. */
export function blobStoreOf(config: { STORAGE_URL?: string; DATA_DIR: string }): BlobStore & { close?: () => void } {
  return config.STORAGE_URL
    ? new S3BlobStore(parseStorageUrl(config.STORAGE_URL))
    : new FileBlobStore(path.join(config.DATA_DIR, 'blobs'));
}
