import { renderToString } from "react-dom/server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Article } from "../../shared/article";
import { prerenderWith } from "../lib/prerendered";
import { renderInRouter } from "../lib/test-render";
import { ArticleCard } from "./ArticleCard";
import { FeaturedSlider } from "./FeaturedSlider";

const story = (n: number, fields: Partial<Article> = {}): Article => ({
  id: `story-${n}-0123456789abcdef`,
  title: `Story ${n}`,
  excerpt: `What happened in story ${n}.`,
  image: `https://images.example.org/${n}.jpg`,
  category: "local-news",
  date: "2026-11-20T17:40:00.000Z",
  author: "Staff Writer",
  link: `https://publisher.example.org/${n}`,
  ...fields,
});

/** Cards and slides of every kind the site renders: text that must be escaped, no image, other sections. */
const stories = [
  story(1),
  story(2, { title: `Tom & Jerry's "<b>bold</b>" move`, excerpt: "A < B > C & D" }),
  story(3, { image: null, category: "business", author: "María Núñez — “Ledger”" }),
  story(4, { date: "2025-12-31T23:30:00.000Z", category: "sports" }),
];

/** A page of lists as the site's pages have them: eager cards first, lazy ones, and the slider. */
const page = (articles: Article[]) => (
  <main>
    <FeaturedSlider articles={articles} />
    <ul>
      {articles.map((article, index) => (
        <li key={article.id}>
          <ArticleCard article={article} eager={index < 2} />
        </li>
      ))}
    </ul>
    <ul>
      {articles.map((article) => (
        <li key={article.id}>
          <ArticleCard article={article} />
        </li>
      ))}
    </ul>
  </main>
);

let renders = 0;
const countingRender = (node: Parameters<typeof renderToString>[0]) => {
  renders++;
  return renderToString(node);
};

describe("story cards and slides rendered once per article", () => {
  beforeEach(() => {
    renders = 0;
  });
  afterAll(() => prerenderWith(null));

  it("are the same HTML as when rendered with the page, first time and from memory", async () => {
    prerenderWith(null);
    const full = await renderInRouter("/", page(stories));
    prerenderWith(renderToString);
    expect(await renderInRouter("/", page(stories))).toBe(full);
    expect(await renderInRouter("/", page(stories))).toBe(full);
    // Each field reaches the HTML, escaped as React escapes it.
    expect(full).toContain("Tom &amp; Jerry&#x27;s &quot;&lt;b&gt;bold&lt;/b&gt;&quot; move");
    expect(full).toContain("María Núñez — “Ledger”");
    expect(full).toContain('src="/images/default-article.svg"');
  });

  it("renders a lazy card or slide once for all pages, and an article that changed afresh", async () => {
    prerenderWith(countingRender);
    const cards = (articles: Article[]) => (
      <>
        {articles.map((article) => (
          <ArticleCard key={article.id} article={article} />
        ))}
      </>
    );
    const first = await renderInRouter("/", cards(stories));
    expect(renders).toBe(stories.length);
    expect(await renderInRouter("/local-news", cards(stories))).toBe(first);
    expect(renders).toBe(stories.length);

    const edited = stories.map((article, index) =>
      index === 0 ? { ...article, title: "Story 1, corrected" } : article,
    );
    const after = await renderInRouter("/", cards(edited));
    expect(renders).toBe(stories.length + 1);
    expect(after).toContain("Story 1, corrected");
    expect(after).not.toContain(">Story 1<");
  });

  it("renders with the page what React preloads: the eager cards' images and the first slide's", async () => {
    prerenderWith(countingRender);
    const html = await renderInRouter("/", page(stories));
    // The preloads lead the document, as React puts them in a page's head.
    const preloads = html.slice(0, html.indexOf("<main")).match(/<link rel="preload"[^>]*>/g);
    expect(preloads).toEqual([
      expect.stringContaining('href="https://images.example.org/1.jpg" fetchPriority="high"'),
      expect.stringContaining('href="https://images.example.org/2.jpg"'),
    ]);
    const tried = renders;
    await renderInRouter("/", page(stories));
    // Known since the first page: not rendered apart again.
    expect(renders).toBe(tried);
  });

  it("keeps a bounded number of variants, rendering dropped ones again when asked", async () => {
    prerenderWith(countingRender);
    const many = Array.from({ length: 2049 }, (_, n) => story(n));
    await renderInRouter(
      "/",
      <>
        {many.map((a) => (
          <ArticleCard key={a.id} article={a} />
        ))}
      </>,
    );
    expect(renders).toBe(2049);
    // The 2049th variant found the memory full and emptied it: the first is rendered again.
    await renderInRouter("/", <ArticleCard article={many[0] ?? story(0)} />);
    expect(renders).toBe(2050);
    await renderInRouter("/", <ArticleCard article={many[2048] ?? story(0)} />);
    expect(renders).toBe(2050);
  });
});
