/**
 * The real-feed corpus as the grouping benchmark reads it (`FEED_CORPUS_DIR`, default ../shared/feed-corpus;
 * its files stay there, never in this repository), and the labelled pairs in pairs.jsonl, which name items
 * by feed file and guid (or link), never by their text.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { normalizeItem } from "../../server/ingest/normalize";
import { parseFeed } from "../../server/ingest/parse";

export const REAL_DIR = path.resolve(
  process.env.FEED_CORPUS_DIR ?? "../shared/feed-corpus",
  "real",
);
const PAIRS_FILE = path.resolve(import.meta.dirname, "pairs.jsonl");

export interface CorpusItem {
  feed: string;
  /** The item's guid, or its link when it has none. */
  item: string;
  title: string;
  excerpt: string;
  publishedAt: Date;
}

export function corpusPresent(): boolean {
  return existsSync(path.join(REAL_DIR, "MANIFEST.tsv"));
}

/** Every dated item of every feed file that parses; undated items have no place in a time window. */
export function readCorpus(): CorpusItem[] {
  const items: CorpusItem[] = [];
  const files = readdirSync(REAL_DIR).filter((f) => !f.endsWith(".tsv") && !f.endsWith(".md"));
  for (const feed of files.sort()) {
    let parsed;
    try {
      parsed = parseFeed(readFileSync(path.join(REAL_DIR, feed)));
    } catch {
      continue;
    }
    const url = `https://feeds.example.test/${feed}`;
    for (const raw of parsed.items) {
      const article = normalizeItem(raw, { feedUrl: url, category: "local-news", baseUrl: url });
      if (article?.date == null) continue;
      items.push({
        feed,
        item: raw.guid ?? article.link,
        title: article.title,
        excerpt: article.excerpt,
        publishedAt: article.date,
      });
    }
  }
  return items;
}

const labelSchema = z.object({
  a: z.object({ feed: z.string(), item: z.string() }),
  b: z.object({ feed: z.string(), item: z.string() }),
  same: z.boolean(),
  reason: z.string().min(1),
});
export type Label = z.infer<typeof labelSchema>;

export function readLabels(file = PAIRS_FILE): Label[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => labelSchema.parse(JSON.parse(line)));
}

export function itemKey(item: { feed: string; item: string }): string {
  return `${item.feed}\t${item.item}`;
}
