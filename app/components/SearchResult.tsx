import { Link } from "react-router";
import type { SearchHit } from "../../server/news/search";
import { alsoCoveredByLine, OWN_STORY_LABEL } from "../../shared/article";
import { categoryByKey } from "../../shared/categories";
import { formatLongDate } from "../lib/dates";
import { plainText } from "../../shared/highlight";
import { ArticleImage } from "./ArticleImage";
import { PICTURE_SLOTS } from "./picture-slots";
import { HighlightedText } from "./HighlightedText";

/** One search result, an article or a blog post, with the matched words marked. */
export function SearchResult({ hit }: { hit: SearchHit }) {
  const href = hit.kind === "article" ? `/article/${hit.id}` : `/blog/${hit.slug}`;
  const label = hit.kind === "article" ? categoryByKey(hit.category).label : "Blog";
  return (
    <article className="flex gap-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <ArticleImage
        picture={hit.picture}
        alt=""
        slot={PICTURE_SLOTS.searchThumbnail}
        width={160}
        height={90}
        className="hidden aspect-video w-40 shrink-0 rounded object-cover sm:block"
      />
      <div className="min-w-0">
        <p className="text-xs font-semibold tracking-wide text-brand uppercase">
          {label}
          {hit.kind === "article" && hit.own ? (
            <span className="text-brand-dark"> · {OWN_STORY_LABEL}</span>
          ) : null}
        </p>
        <h2 className="mt-1 text-lg leading-snug font-bold">
          <Link to={href} className="hover:underline" aria-label={plainText(hit.title)}>
            <HighlightedText runs={hit.title} />
          </Link>
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          <HighlightedText runs={hit.excerpt} />
        </p>
        {hit.kind === "article" && hit.alsoCoveredBy ? (
          <p className="mt-1 text-xs text-slate-700">{alsoCoveredByLine(hit.alsoCoveredBy)}</p>
        ) : null}
        <p className="mt-2 text-xs text-slate-600">
          {hit.kind === "article" ? `By ${hit.author}` : "Blog post"}
          {hit.date ? (
            <>
              {" · "}
              <time dateTime={hit.date}>{formatLongDate(hit.date)}</time>
            </>
          ) : null}
        </p>
      </div>
    </article>
  );
}
