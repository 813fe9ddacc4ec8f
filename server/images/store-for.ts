import type { Config, S3StoreConfig } from "../config";
import { folderPictureStore, type PictureStore } from "./store";

/**
 * The S3 store, its module (and the AWS SDK it loads: 90 ms and 22 MB of every process's start,
 * measured) imported when a picture is first asked of it, so a machine keeping its pictures in a
 * folder never loads it.
 */
function lazyS3Store(config: S3StoreConfig): PictureStore {
  let store: Promise<PictureStore> | undefined;
  const loaded = () => (store ??= import("./s3-store").then((m) => m.s3PictureStore(config)));
  return {
    putOriginal: async (bytes, options) => (await loaded()).putOriginal(bytes, options),
    getOriginal: async (hash) => (await loaded()).getOriginal(hash),
    hasOriginal: async (hash) => (await loaded()).hasOriginal(hash),
    keep: async (hash) => (await loaded()).keep(hash),
    release: async (hash) => (await loaded()).release(hash),
    putVariant: async (hash, variant, bytes) => (await loaded()).putVariant(hash, variant, bytes),
    getVariant: async (hash, variant) => (await loaded()).getVariant(hash, variant),
    remove: async (hash) => (await loaded()).remove(hash),
    totalBytes: async () => (await loaded()).totalBytes(),
  };
}

/** The store PICTURE_STORE names: the folder on this machine, or the bucket all machines share. */
export function pictureStoreFor(pictures: Config["pictures"]): PictureStore {
  return pictures.store.kind === "s3"
    ? lazyS3Store(pictures.store)
    : folderPictureStore({ dir: pictures.dir, maxBytes: pictures.maxBytes });
}

/** Where pictures are kept, in words for people (`news pictures`): no credentials. */
export function pictureStoreName(pictures: Config["pictures"]): string {
  if (pictures.store.kind === "folder") return `Picture folder ${pictures.dir}`;
  const { bucket, prefix, endpoint } = pictures.store;
  return `Picture bucket s3://${bucket}/${prefix}${endpoint ? ` at ${endpoint}` : ""}`;
}
