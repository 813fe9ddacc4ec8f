import { eq } from "drizzle-orm";
import { data } from "react-router";
import { withBlogPicture } from "../../../server/blog/pictures";
import { newsroomBlogPost } from "../../../server/blog/with-newsroom";
import { newsroomMedia } from "../../../server/db/schema";
import { withOwnPictures } from "../../../server/images/body";
import { withShownBody } from "../../../server/news/pictures";
import { latestArticles, relatedArticles, uploadsNamedIn } from "../../../server/news/repository";
import { withVideoPlayers } from "../../../server/news/video-players";
import { postById } from "../../../server/newsroom/post-reads";
import { bylineText } from "../../../server/newsroom/post-live";
import { requireStaff } from "../../../server/staff/guard";
import type { ArticleWithBody } from "../../../shared/article";
import { isCategoryKey } from "../../../shared/categories";
import { asArticlePicture, uploadedPicture } from "../../../shared/picture";
import { ArticleView } from "../../components/ArticleView";
import { BlogPostView } from "../../components/BlogPostView";
import { PageAds } from "../../components/PageAds";
import { newsroomHeaders } from "../../lib/headers";
import { newsroomMeta } from "../../lib/newsroom-meta";
import type { Route } from "./+types/preview-frame";

/**
 * A draft drawn as the reader's page (the newsroom's preview frames it at a phone's and a desk's
 * width): the same view the article or blog post page draws, with the reader's header and footer
 * (this route is outside the newsroom's layout), for signed-in staff only, never cached or indexed.
 */
export const headers = newsroomHeaders;
export const meta: Route.MetaFunction = newsroomMeta("Preview");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const id = Number(params.id);
  const post = Number.isSafeInteger(id) ? await postById(context.db, id) : null;
  if (!post) throw data("There is no such story or post.", { status: 404 });
  const fields = post.draft;
  const [media] =
    fields.mediaId === null
      ? []
      : await context.db.select().from(newsroomMedia).where(eq(newsroomMedia.id, fields.mediaId));
  const date = post.firstPublishedAt ?? new Date();

  if (post.kind === "blog") {
    const shown = newsroomBlogPost({
      post: { ...post, live: fields, slug: post.slug ?? "preview", firstPublishedAt: date },
      media: media ?? null,
    });
    if (!shown) throw data("This draft cannot be shown yet.", { status: 404 });
    const blogPost = {
      ...(await withBlogPicture(context.db, context.logger, shown)),
      html: await withShownBody(context.db, context.logger, shown.html, context.config.siteUrl),
    };
    return { kind: "blog" as const, blogPost };
  }

  const picture = media ? asArticlePicture(uploadedPicture(media)) : null;
  const category =
    fields.category && isCategoryKey(fields.category) ? fields.category : "local-news";
  const articleId = post.articleId ?? `preview-${post.id}`;
  const content = withVideoPlayers(
    withOwnPictures(fields.bodyHtml, await uploadsNamedIn(context.db, fields.bodyHtml), null),
  );
  const article: ArticleWithBody = {
    id: articleId,
    title: fields.title,
    excerpt: fields.dek || fields.description,
    picture,
    category,
    date: date.toISOString(),
    author: bylineText(fields.bylines) || "Staff",
    link: `${context.config.siteUrl}/article/${articleId}`,
    own: true,
    content,
    ownStory: {
      bylines: fields.bylines,
      dek: fields.dek,
      pictureAlt: fields.pictureAlt || null,
      pictureCredit: fields.pictureCredit || null,
    },
  };
  const [related, latest] = await Promise.all([
    relatedArticles(context.db, article),
    latestArticles(context.db, { limit: 4, excludeId: articleId }),
  ]);
  return {
    kind: "story" as const,
    story: { article, showExcerpt: false, related, latest, corrections: [] },
  };
}

export default function PreviewFrame({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "blog") {
    return (
      <>
        <BlogPostView post={loaderData.blogPost} />
        <PageAds kind="page" at="end" className="mx-auto mt-10 max-w-3xl" />
      </>
    );
  }
  return <ArticleView {...loaderData.story} />;
}
