/**
 * The labelled pairs stay complete: every pair of items from different feeds within 120 hours whose titles
 * share two significant words is judged, so recall is measured over all a plain method would propose.
 */
import { describe, expect, it } from "vitest";
import { significantWords } from "../../server/grouping/words";
import { corpusPresent, itemKey, readCorpus, readLabels, REAL_DIR } from "./corpus";

const present = corpusPresent();
if (!present) console.log(`feed corpus not found at ${REAL_DIR}: grouping pairs suite NOT run`);

describe.skipIf(!present)("labelled grouping pairs", () => {
  const items = present ? readCorpus() : [];
  const labels = readLabels();
  const pairKey = (a: string, b: string) => (a < b ? `${a}\n${b}` : `${b}\n${a}`);
  const labelled = new Set(labels.map((l) => pairKey(itemKey(l.a), itemKey(l.b))));

  it("name items of the corpus, each pair once, across feeds, with a reason", () => {
    const keys = new Set(items.map(itemKey));
    for (const l of labels) {
      expect(keys.has(itemKey(l.a)), itemKey(l.a)).toBe(true);
      expect(keys.has(itemKey(l.b)), itemKey(l.b)).toBe(true);
      expect(l.a.feed).not.toBe(l.b.feed);
    }
    expect(labelled.size).toBe(labels.length);
  });

  it("judge every cross-feed pair within 120 h sharing two significant title words", () => {
    const words = items.map((i) => significantWords(i.title));
    const missing: string[] = [];
    items.forEach((a, i) => {
      items.forEach((b, j) => {
        if (j <= i || a.feed === b.feed) return;
        if (Math.abs(a.publishedAt.getTime() - b.publishedAt.getTime()) > 120 * 3_600_000) return;
        let shared = 0;
        for (const w of words[i] ?? []) if (words[j]?.has(w)) shared++;
        if (shared >= 2 && !labelled.has(pairKey(itemKey(a), itemKey(b)))) {
          missing.push(`${a.title} / ${b.title}`);
        }
      });
    });
    expect(missing).toEqual([]);
  });
});
