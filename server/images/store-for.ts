import type { Config } from "../config";
import { s3PictureStore } from "./s3-store";
import { folderPictureStore, type PictureStore } from "./store";

/** The store PICTURE_STORE names: the folder on this machine, or the bucket all machines share. */
export function pictureStoreFor(pictures: Config["pictures"]): PictureStore {
  return pictures.store.kind === "s3"
    ? s3PictureStore(pictures.store)
    : folderPictureStore({ dir: pictures.dir, maxBytes: pictures.maxBytes });
}

/** Where pictures are kept, in words for people (`news pictures`): no credentials. */
export function pictureStoreName(pictures: Config["pictures"]): string {
  if (pictures.store.kind === "folder") return `Picture folder ${pictures.dir}`;
  const { bucket, prefix, endpoint } = pictures.store;
  return `Picture bucket s3://${bucket}/${prefix}${endpoint ? ` at ${endpoint}` : ""}`;
}
