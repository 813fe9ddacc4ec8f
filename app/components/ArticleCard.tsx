import { Link } from "react-router";
import { categoryByKey } from "../../shared/categories";
import { formatLongDate } from "../lib/dates";
import { alsoCoveredByLine, OWN_STORY_LABEL, type Article } from "../../shared/article";
import { ArticleImage } from "./ArticleImage";
import type { PictureSlot } from "./picture-slots";

interface Props {
  article: Article;
  /** Where the list draws its cards' pictures (picture-slots.ts). */
  slot: PictureSlot;
  /** The page's largest picture is fetched first (`priority`); the rest when near the screen. */
  load?: "priority" | "lazy";
  /** A link at the card's foot, inside its border, below the byline (Business's Read More). */
  action?: React.ReactNode;
}

/** A story in a list. */
export function ArticleCard({ article, slot, load = "lazy", action }: Props) {
  const category = categoryByKey(article.category);
  return (
    <article className="flex flex-col overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <div className="relative aspect-video bg-slate-200">
        <ArticleImage
          picture={article.picture}
          alt={article.title}
          slot={slot}
          load={load}
          width={800}
          height={450}
          className="absolute inset-0 h-full w-full object-cover"
        />
        <span className="absolute top-2 left-2 rounded bg-brand px-2 py-1 text-xs font-semibold text-white">
          {category.label}
        </span>
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        {article.own ? (
          <p className="text-xs font-semibold tracking-wide text-brand-dark uppercase">
            {OWN_STORY_LABEL}
          </p>
        ) : null}
        <h3 className="text-lg leading-snug font-bold">
          <Link to={`/article/${article.id}`} className="hover:underline">
            {article.title}
          </Link>
        </h3>
        <p className="text-sm text-slate-700">{article.excerpt}</p>
        {article.alsoCoveredBy ? (
          <p className="text-xs text-slate-700">{alsoCoveredByLine(article.alsoCoveredBy)}</p>
        ) : null}
        <p className="mt-auto text-xs text-slate-600">
          By {article.author} · <time dateTime={article.date}>{formatLongDate(article.date)}</time>
        </p>
        {action}
      </div>
    </article>
  );
}
