import path from "node:path";
import { inspect } from "node:util";
import { z } from "zod";
import { ConfigError } from "./error";
import { flag, httpUrl, nonEmpty, numberIn, wholeNumber } from "./readers";

/** The settings of pictures (server/images, decision 022), a section of config.ts's schema. */
export const pictureVariables = {
  PICTURES_DIR: nonEmpty.optional(),
  PICTURES_MAX_MB: numberIn(16, 1_048_576, "a number of megabytes from 16 to 1048576").default(
    2048,
  ),
  UPLOAD_MAX_BYTES: wholeNumber(1_048_576, 104_857_600, "bytes").default(15 * 1024 * 1024),
  PICTURE_STORE: z.enum(["folder", "s3"], { error: "folder or s3" }).default("folder"),
  S3_ENDPOINT: httpUrl.optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
      error: "a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens",
    })
    .optional(),
  S3_REGION: nonEmpty.default("us-east-1"),
  S3_PREFIX: z
    .string()
    .regex(/^\/*(?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+\/*$/, {
      error: "a key prefix such as news or sites/news (letters, digits, . _ - and /)",
    })
    .optional(),
  S3_FORCE_PATH_STYLE: flag,
  S3_ACCESS_KEY_ID: nonEmpty.optional(),
  S3_SECRET_ACCESS_KEY: nonEmpty.optional(),
  S3_TIMEOUT_MS: wholeNumber(100, 60_000, "milliseconds").default(2000),
  IMAGE_FETCH_ALLOW_PRIVATE: flag,
};

type PictureVariables = z.output<z.ZodObject<typeof pictureVariables>>;

export interface PicturesConfig {
  dir: string;
  maxBytes: number;
  allowPrivateAddresses: boolean;
  uploadMaxBytes: number;
  store: { kind: "folder" } | ({ kind: "s3" } & S3StoreConfig);
}

/** The bucket pictures are kept in with PICTURE_STORE=s3 (server/images/s3-store.ts). */
export interface S3StoreConfig {
  /** The service's address (MinIO, Ceph, R2...); null: AWS S3 itself, by `region`. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Put before every key, ending in `/` (`news/`), or empty. */
  prefix: string;
  /** `https://host/bucket/key` (MinIO, Ceph) rather than `https://bucket.host/key` (AWS, R2). */
  forcePathStyle: boolean;
  /**
   * Never logged: printed or logged, the secret shows as [redacted]. null: the SDK's own chain
   * (the AWS_* variables, the machine's role).
   */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** The longest a connection may take to open, or a request may stay silent (S3_TIMEOUT_MS). */
  timeoutMs: number;
}

/** Where pictures are kept (DATA_DIR/pictures unless PICTURES_DIR says) and their size limits. */
export function picturesConfig(
  v: PictureVariables & { DATA_DIR: string },
  cwd: string,
): PicturesConfig {
  return {
    dir: path.resolve(cwd, v.PICTURES_DIR ?? path.join(v.DATA_DIR, "pictures")),
    maxBytes: Math.round(v.PICTURES_MAX_MB * 1024 * 1024),
    allowPrivateAddresses: v.IMAGE_FETCH_ALLOW_PRIVATE,
    uploadMaxBytes: v.UPLOAD_MAX_BYTES,
    store: pictureStoreConfig(v),
  };
}

function pictureStoreConfig(v: PictureVariables): PicturesConfig["store"] {
  if (v.PICTURE_STORE === "folder") return { kind: "folder" };
  if (!v.S3_BUCKET) throw new ConfigError("S3_BUCKET", "set when PICTURE_STORE is s3", undefined);
  if (Boolean(v.S3_ACCESS_KEY_ID) !== Boolean(v.S3_SECRET_ACCESS_KEY)) {
    const missing = v.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID";
    // The value is never shown: it may be the secret.
    throw new ConfigError(
      missing,
      "set with the other of S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY",
      undefined,
    );
  }
  const prefix = (v.S3_PREFIX ?? "").replace(/^\/+|\/+$/g, "");
  return {
    kind: "s3",
    endpoint: v.S3_ENDPOINT ?? null,
    bucket: v.S3_BUCKET,
    region: v.S3_REGION,
    prefix: prefix ? `${prefix}/` : "",
    forcePathStyle: v.S3_FORCE_PATH_STYLE,
    credentials:
      v.S3_ACCESS_KEY_ID && v.S3_SECRET_ACCESS_KEY
        ? redacted({ accessKeyId: v.S3_ACCESS_KEY_ID, secretAccessKey: v.S3_SECRET_ACCESS_KEY })
        : null,
    timeoutMs: v.S3_TIMEOUT_MS,
  };
}

/** The credentials as they are, shown as [redacted] when logged (JSON) or printed (inspect). */
function redacted(credentials: { accessKeyId: string; secretAccessKey: string }) {
  const shown = { accessKeyId: credentials.accessKeyId, secretAccessKey: "[redacted]" };
  return Object.defineProperties(credentials, {
    toJSON: { value: () => shown, enumerable: false },
    [inspect.custom]: { value: () => shown, enumerable: false },
  });
}
