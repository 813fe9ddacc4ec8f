import type { ArticlePicture } from "../../shared/picture";
import type { Database } from "../db/client";
import type { Logger } from "../logger";
import { withShownPictures } from "../news/pictures";
import type { BlogPostSummary } from "./source";

/** A blog post with the picture pages draw for it. */
export type WithPicture<T extends BlogPostSummary> = Omit<T, "picture"> & {
  picture: ArticlePicture | null;
};

/**
 * Posts with their `picture` as pages draw it: a post's own picture (a newsroom upload) as it
 * is, any other post's `image` as the picture pass keeps it (server/news/pictures.ts).
 */
export async function withBlogPictures<T extends BlogPostSummary>(
  db: Database,
  logger: Logger,
  posts: readonly T[],
): Promise<WithPicture<T>[]> {
  const looked = await withShownPictures(
    db,
    logger,
    posts.filter((post) => !post.picture),
  );
  let next = 0;
  return posts.map((post) => {
    if (post.picture) return { ...post, picture: post.picture };
    return { ...post, picture: looked[next++]?.picture ?? null };
  });
}

/** One post with its picture (see withBlogPictures). */
export async function withBlogPicture<T extends BlogPostSummary>(
  db: Database,
  logger: Logger,
  post: T,
): Promise<WithPicture<T>> {
  const [shown] = await withBlogPictures(db, logger, [post]);
  return shown ?? { ...post, picture: post.picture ?? null };
}
