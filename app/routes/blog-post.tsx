import { socialImage } from "../../shared/picture";
import { data } from "react-router";
import { blogErrorMessage } from "../../server/blog/load";
import { withBlogPicture } from "../../server/blog/pictures";
import { withShownBody } from "../../server/news/pictures";
import { PageAds } from "../components/PageAds";
import { pageHead, pageUrl } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import { blogPosting, breadcrumbs } from "../../shared/structured-data";
import type { RouteKeysName } from "../../server/cache/route-keys";
import type { Route } from "./+types/blog-post";
import { BackToBlog, BlogPostView, topicsOfPost } from "../components/BlogPostView";

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { siteUrl } = context.config;
  const missing = pageHead(request, context, {
    title: "Blog post not found",
    description: "This blog post could not be found.",
    noindex: true,
  });
  try {
    const found = await context.blog.get(params.slug);
    if (!found) {
      return data(
        { state: "error" as const, message: "Blog not found", head: missing },
        { status: 404 },
      );
    }
    const post = {
      ...(await withBlogPicture(context.db, context.logger, found)),
      html: await withShownBody(context.db, context.logger, found.html, siteUrl),
    };
    const topics = topicsOfPost(post);
    const head = pageHead(
      request,
      context,
      {
        title: post.title,
        description: post.description,
        type: "article",
        image: socialImage(post.picture, post.pictureAlt || post.title),
        ...(post.date ? { article: { publishedTime: post.date, section: "Blog" } } : {}),
      },
      [
        blogPosting(siteUrl, pageUrl(request, siteUrl), { ...post, keywords: topics }),
        breadcrumbs(siteUrl, [
          { name: "Blog", path: "/blog" },
          { name: post.title, path: `/blog/${post.slug}` },
        ]),
      ],
    );
    return { state: "loaded" as const, post, head };
  } catch (error) {
    context.logger.error({ err: error, slug: params.slug }, "a blog post could not be read");
    return data(
      { state: "error" as const, message: blogErrorMessage(error), head: missing },
      { status: 503 },
    );
  }
}

export const meta = headMeta;
export const handle = { ...headHandle, cacheKeys: "blog-post" satisfies RouteKeysName };

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === "error") {
    return (
      <section className="mx-auto max-w-3xl py-10" role="alert">
        <h1 className="text-2xl font-bold">{`Error loading blog: ${loaderData.message}`}</h1>
        <BackToBlog button />
        {/* Most often "Blog not found": a page readers land on from an old link. */}
        <PageAds kind="page" at="end" className="mt-10" />
      </section>
    );
  }
  return (
    <>
      <BlogPostView post={loaderData.post} />
      <PageAds kind="page" at="end" className="mx-auto mt-10 max-w-3xl" />
    </>
  );
}
