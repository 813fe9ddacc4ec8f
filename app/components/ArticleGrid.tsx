import type { Article } from "../../shared/article";
import { ArticleCard } from "./ArticleCard";
import { PICTURE_SLOTS } from "./picture-slots";

interface Props {
  articles: Article[];
  empty: string;
}

export function ArticleGrid({ articles, empty }: Props) {
  if (articles.length === 0) return <p className="text-slate-700">{empty}</p>;
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {articles.map((article) => (
        <li key={article.id} className="flex">
          <ArticleCard article={article} slot={PICTURE_SLOTS.cardThreeColumns} load="lazy" />
        </li>
      ))}
    </ul>
  );
}
