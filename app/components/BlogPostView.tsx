import { Link } from "react-router";
import type { WithPicture } from "../../server/blog/pictures";
import type { BlogPost } from "../../server/blog/source";
import { pinterestLink, splitTags } from "../lib/blog";
import { formatLongDate } from "../lib/dates";
import { ArticleBody } from "./ArticleBody";
import { ArticleImage } from "./ArticleImage";
import { VideoEmbed } from "./Embed";
import { PICTURE_SLOTS } from "./picture-slots";

/** The Topics: the post's own (a newsroom post's), else its short-tail keywords. */
export function topicsOfPost(post: Pick<BlogPost, "topics" | "shortTailKeywords">): string[] {
  return post.topics ?? splitTags(post.shortTailKeywords);
}

export function BackToBlog({ button = false }: { button?: boolean }) {
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

/**
 * A blog post as readers see it (the spec's blog detail). The blog post page draws it from the
 * blog, the newsroom's preview from a draft (routes/newsroom/preview-frame.tsx).
 */
export function BlogPostView({ post }: { post: WithPicture<BlogPost> }) {
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
