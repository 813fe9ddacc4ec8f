import { createHash } from "node:crypto";
import http from "node:http";
import https from "node:https";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import type { S3StoreConfig } from "../config";
import {
  HASH,
  keepStored,
  PictureStoreUnavailableError,
  VARIANT,
  type PictureStore,
} from "./store";

/** How long every call fails at once after the store did not answer (the route's Retry-After). */
const PAUSE_AFTER_FAILURE_MS = 5_000;
/** A whole request, a 15 MB upload included, on a slow link; silence is cut sooner (timeoutMs). */
const REQUEST_LIMIT_MS = 30_000;
/** Keys listed, and removed, a request at most (ListObjectsV2's and DeleteObjects' own limit). */
const PAGE = 1000;

const CONTENT_TYPES: Record<string, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpg: "image/jpeg",
};

/** The client as the store uses it: short timeouts, one retry, checksums only where required. */
export function s3ClientFor(config: S3StoreConfig): S3Client {
  const agent = { keepAlive: true, maxSockets: 64 };
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // One retry: a store that does not answer twice makes the page's pictures wait no longer.
    maxAttempts: 2,
    requestHandler: new NodeHttpHandler({
      connectionTimeout: config.timeoutMs,
      socketTimeout: config.timeoutMs,
      requestTimeout: REQUEST_LIMIT_MS,
      throwOnRequestTimeout: true,
      httpAgent: new http.Agent(agent),
      httpsAgent: new https.Agent(agent),
    }),
    // Since 3.729 the SDK adds CRC32 checksums to every call, which some S3-compatible services
    // refuse or mishandle; only calls that need one get one (TLS and the sha256 names still
    // stand for the bytes).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** The HTTP status the service answered with, if it answered at all. */
function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("$metadata" in error)) return undefined;
  const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  return metadata?.httpStatusCode;
}

/**
 * An S3-compatible bucket shared by every machine (decision 022): `originals/<sha256>` (written
 * once: the hash is the name, so two machines writing the same picture agree),
 * `variants/<sha256>/<file>` (made once by whichever machine is asked first), and an empty
 * `kept/<sha256>` beside each newsroom upload. No bound is kept here: copies expire by the bucket's
 * lifecycle rule on `variants/` (they are made again when asked), and originals go when no article
 * names them (the picture pass's `remove`).
 *
 * A store that does not answer (refused, timed out, a 5xx) fails every call at once for a few
 * seconds with PictureStoreUnavailableError, so that a page's dozens of pictures answer 503 at once
 * instead of each waiting out the timeouts.
 */
export function s3PictureStore(
  config: S3StoreConfig,
  options: { client?: S3Client; pauseAfterFailureMs?: number; pageSize?: number } = {},
): PictureStore {
  const client = options.client ?? s3ClientFor(config);
  const pauseMs = options.pauseAfterFailureMs ?? PAUSE_AFTER_FAILURE_MS;
  const pageSize = options.pageSize ?? PAGE;
  const { bucket, prefix } = config;
  const originalKey = (hash: string) => `${prefix}originals/${hash}`;
  const keptKey = (hash: string) => `${prefix}kept/${hash}`;
  const variantsOf = (hash: string) => `${prefix}variants/${hash}/`;
  let downUntil = 0;

  const retryAfter = () => Math.max(1, Math.ceil(pauseMs / 1000));

  /** A call to the service; one it did not answer marks the store down for `pauseMs`. */
  async function call<T>(what: string, send: () => Promise<T>): Promise<T> {
    if (Date.now() < downUntil) {
      throw new PictureStoreUnavailableError(
        `The picture store did not answer just now (${what} not tried)`,
        retryAfter(),
      );
    }
    try {
      return await send();
    } catch (error) {
      const status = statusOf(error);
      if (status === undefined || status >= 500) {
        downUntil = Date.now() + pauseMs;
        // The reason in a few words: the SDK's error carries the whole response, too much to log.
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        throw new PictureStoreUnavailableError(
          `The picture store did not answer (${what}): ${status ? `${status} ` : ""}${reason}`,
          retryAfter(),
        );
      }
      throw error;
    }
  }

  /** The object's bytes, or null when there is none. */
  async function read(key: string): Promise<Uint8Array | null> {
    return call(`read ${key}`, async () => {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!answer.Body) return null;
        return await answer.Body.transformToByteArray();
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    });
  }

  async function exists(key: string): Promise<boolean> {
    return call(`look for ${key}`, async () => {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        throw error;
      }
    });
  }

  async function write(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await call(`write ${key}`, () =>
      client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType }),
      ),
    );
  }

  /**
   * Every object under `under`, a page at a time. Each page starts after the last key of the one
   * before (StartAfter, which every S3-compatible service takes; s3rver's continuation tokens
   * need the DES cipher, gone from Node's OpenSSL 3).
   */
  async function* list(under: string): AsyncGenerator<{ key: string; size: number }> {
    let after: string | undefined;
    for (;;) {
      const page = await call(`list ${under}`, () =>
        client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: under,
            MaxKeys: pageSize,
            StartAfter: after,
          }),
        ),
      );
      const objects = page.Contents ?? [];
      for (const object of objects) {
        if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
      }
      after = objects.at(-1)?.Key;
      if (!page.IsTruncated || !after) return;
    }
  }

  async function deleteKeys(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += pageSize) {
      const batch = keys.slice(start, start + pageSize);
      const answer = await call(`remove ${batch.length} objects`, () =>
        client.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        ),
      );
      const failed = answer.Errors?.[0];
      if (failed) {
        throw new Error(`The picture store kept ${failed.Key ?? "an object"}: ${failed.Message}`);
      }
    }
  }

  const hasOriginal = (hash: string) =>
    HASH.test(hash) ? exists(originalKey(hash)) : Promise.resolve(false);

  /** The mark first, then the bytes: no removal by the bound can come between (as the folder). */
  const mark = (hash: string) => write(keptKey(hash), new Uint8Array(), "application/octet-stream");

  async function release(hash: string): Promise<void> {
    if (!HASH.test(hash)) return;
    await call(`release ${hash}`, () =>
      client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keptKey(hash) })),
    );
  }

  return {
    async putOriginal(bytes, options = {}) {
      const hash = createHash("sha256").update(bytes).digest("hex");
      if (options.keep) await mark(hash);
      // Written once: another machine may have put the same bytes under the same name already.
      if (!(await exists(originalKey(hash)))) {
        await write(originalKey(hash), bytes, "application/octet-stream");
      }
      return hash;
    },
    getOriginal: (hash) => (HASH.test(hash) ? read(originalKey(hash)) : Promise.resolve(null)),
    hasOriginal,
    keep: (hash) => keepStored(hash, { hasOriginal, mark, release }),
    release,
    async putVariant(hash, variant, bytes) {
      if (!HASH.test(hash) || !VARIANT.test(variant)) {
        throw new Error(`Not a picture variant: ${hash}/${variant}`);
      }
      const extension = variant.slice(variant.lastIndexOf(".") + 1);
      await write(`${variantsOf(hash)}${variant}`, bytes, CONTENT_TYPES[extension] ?? "image/jpeg");
    },
    getVariant: (hash, variant) =>
      HASH.test(hash) && VARIANT.test(variant)
        ? read(`${variantsOf(hash)}${variant}`)
        : Promise.resolve(null),
    async remove(hash) {
      if (!HASH.test(hash)) return;
      const keys = [originalKey(hash), keptKey(hash)];
      for await (const object of list(variantsOf(hash))) keys.push(object.key);
      await deleteKeys(keys);
    },
    /**
     * Lists the bucket (one request per 1,000 objects): `news pictures` asks, nothing on a page
     * does. Kept originals are not counted, as in the folder.
     */
    async totalBytes() {
      const kept = new Set<string>();
      for await (const object of list(`${prefix}kept/`)) kept.add(object.key.slice(-64));
      let bytes = 0;
      for await (const object of list(`${prefix}originals/`)) {
        if (!kept.has(object.key.slice(-64))) bytes += object.size;
      }
      for await (const object of list(`${prefix}variants/`)) bytes += object.size;
      return bytes;
    },
  };
}
