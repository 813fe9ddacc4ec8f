import { socialImage } from "../../shared/picture";
import { data, Link } from "react-router";
import { blogErrorMessage } from "../../server/blog/load";
import { withBlogPicture, type WithPicture } from "../../server/blog/pictures";
import { withShownBody } from "../../server/news/pictures";
import type { BlogPost } from "../../server/blog/source";
import { ArticleBody } from "../components/ArticleBody";
import { ArticleImage } from "../components/ArticleImage";
import { PICTURE_SLOTS } from "../components/picture-slots";
import { VideoEmbed } from "../components/Embed";
import { PageAds } from "../components/PageAds";
import { pinterestLink, splitTags } from "../lib/blog";
import { formatLongDate } from "../lib/dates";
import { pageHead, pageUrl } from "../../server/seo/head";
import { headHandle, headMeta } from "../../shared/head";
import { blogPosting, breadcrumbs } from "../../shared/structured-data";
import type { Route } from "./+types/blog-post";

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

/** The Topics: the post's own (a newsroom post's), else its short-tail keywords. */
function topicsOfPost(post: Pick<BlogPost, "topics" | "shortTailKeywords">): string[] {
  return post.topics ?? splitTags(post.shortTailKeywords);
}

export const meta = headMeta;
export const handle = headHandle;

function BackToBlog({ button = false }: { button?: boolean }) {
  return (
    <Link
      to="/blog"
      className={
        button
          ? "mt-6 inline-block rounded bg-brand px-4 py-2 font-semibold text-white hover:bg-brand-dark"
          : "inline-flex items-center gap-1 font-semibold text-brand hover:underline"
      }
    >
      {button ? null : <span aria-hidden="true">←</span>}
      Back to Blog
    </Link>
  );
}

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
      <Post post={loaderData.post} />
      <PageAds kind="page" at="end" className="mx-auto mt-10 max-w-3xl" />
    </>
  );
}

function Post({ post }: { post: WithPicture<BlogPost> }) {
  const pinterest = pinterestLink(post.image);
  const topics = topicsOfPost(post);
  return (
    <article className="mx-auto max-w-3xl">
      <BackToBlog />
      {post.image ? (
        <figure className="mt-6">
          <ArticleImage
            picture={post.picture}
            alt={post.pictureAlt || post.title}
            slot={PICTURE_SLOTS.blogHero}
            load="priority"
            width={1200}
            height={675}
            className="aspect-video w-full rounded-lg bg-slate-200 object-cover"
          />
          {pinterest ? (
            <figcaption className="mt-2 text-sm">
              <a
                href={pinterest}
                target="_blank"
                rel="noopener noreferrer"
                className="font-semibold text-brand underline decoration-1 underline-offset-2 hover:decoration-2"
              >
                View on Pinterest<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </figcaption>
          ) : post.pictureCredit ? (
            <figcaption className="mt-2 text-sm text-slate-600">{`Photo: ${post.pictureCredit}`}</figcaption>
          ) : null}
        </figure>
      ) : null}
      <h1 className="mt-6 text-3xl leading-tight font-bold md:text-4xl">{post.title}</h1>
      {post.date || post.author ? (
        <p className="mt-3 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-600">
          {post.date ? <time dateTime={post.date}>{formatLongDate(post.date)}</time> : null}
          {post.author ? (
            <span className="font-semibold text-slate-800">{`By ${post.author}`}</span>
          ) : null}
        </p>
      ) : null}
      {post.description ? <p className="mt-4 text-lg text-slate-700">{post.description}</p> : null}
      {/* The source sanitised the body to the allowlist (server/ingest/sanitize.ts). */}
      <ArticleBody
        html={post.html}
        className="article-body mt-8 space-y-4 text-lg leading-relaxed"
      />
      {post.video ? (
        <section aria-labelledby="blog-video" className="mt-10">
          <h2 id="blog-video" className="mb-4 text-2xl font-bold">
            Watch the Video
          </h2>
          <VideoEmbed url={post.video} title={post.title} />
        </section>
      ) : null}
      {topics.length > 0 ? (
        <section aria-labelledby="blog-topics" className="mt-10 border-t border-slate-200 pt-6">
          <h2 id="blog-topics" className="mb-3 text-xl font-bold">
            Topics
          </h2>
          <ul className="flex flex-wrap gap-2">
            {topics.map((topic, i) => (
              <li
                key={`${i}-${topic}`}
                className="rounded-full bg-slate-200 px-3 py-1 text-sm font-medium text-slate-800"
              >
                {topic}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
