import { Link } from "react-router";
import type { WithPicture } from "../../server/blog/pictures";
import type { BlogPostSummary } from "../../server/blog/source";
import { ArticleImage } from "./ArticleImage";
import { PICTURE_SLOTS } from "./picture-slots";

/** A post in the blog list: round image when there is one, title linking to the post, description. */
export function BlogPostCard({ post }: { post: WithPicture<BlogPostSummary> }) {
  return (
    // The title's link covers the whole card (its ::after), so the card is one large target.
    <article className="relative flex items-start gap-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 focus-within:ring-2 focus-within:ring-brand hover:ring-slate-300 sm:gap-6 sm:p-6">
      {post.image ? (
        <ArticleImage
          picture={post.picture}
          alt={post.title}
          slot={PICTURE_SLOTS.blogThumbnail}
          width={96}
          height={96}
          className="h-16 w-16 shrink-0 rounded-full bg-slate-200 object-cover sm:h-24 sm:w-24"
        />
      ) : null}
      <div className="min-w-0">
        <h2 className="text-lg leading-snug font-bold sm:text-xl">
          <Link
            to={`/blog/${encodeURIComponent(post.slug)}`}
            className="after:absolute after:inset-0 after:rounded-lg hover:underline focus:outline-none"
          >
            {post.title}
          </Link>
        </h2>
        {post.description ? <p className="mt-2 text-slate-700">{post.description}</p> : null}
      </div>
    </article>
  );
}
