import { describe, expect, it } from "vitest";
import { KeptFeatures, type FeatureSource } from "./kept-features";
import { matchFeatures } from "./match";

const storyOf = (n: number): FeatureSource => ({
  id: `story-${n}`,
  feedId: n % 30,
  title: `Harbor board votes on pier lease number ${n}`,
  excerpt: `The board met on Tuesday to decide lease ${n}.`,
  time: Date.UTC(2026, 10, 20) - n * 60_000,
});

const storiesOf = (count: number, from = 0): FeatureSource[] =>
  Array.from({ length: count }, (_, i) => storyOf(from + i));

/** The real features, and how many times they were computed. */
function counted() {
  const computed: string[] = [];
  const kept = new KeptFeatures((source) => {
    computed.push(source.id);
    return matchFeatures({ ...source, publishedAt: new Date(source.time) });
  });
  return { kept, computed };
}

describe("KeptFeatures", () => {
  it("finds a whole window again on the next pass, however large", () => {
    const { kept, computed } = counted();
    // Larger than the 3,000 a first-in-first-out cap once held: read newest first every pass,
    // each story was forgotten just before it was read again.
    const window = storiesOf(4_500);
    const first = kept.read(window);
    expect(computed).toHaveLength(4_500);
    const second = kept.read(window);
    expect(computed).toHaveLength(4_500);
    expect(second.get("story-17")).toBe(first.get("story-17"));
    expect(second.get("story-17")?.words).toEqual(
      matchFeatures({ ...storyOf(17), publishedAt: new Date(storyOf(17).time) }).words,
    );
  });

  it("computes only the stories new to the window, and forgets those that left it", () => {
    const { kept, computed } = counted();
    kept.read(storiesOf(100));
    computed.length = 0;
    // The window moved on: ten new stories in, ten old ones out.
    kept.read([...storiesOf(10, 100), ...storiesOf(90, 10)]);
    expect(computed).toEqual(storiesOf(10, 100).map((s) => s.id));
    expect(kept.size).toBe(100);
    computed.length = 0;
    kept.read(storiesOf(10));
    expect(computed).toEqual(storiesOf(10).map((s) => s.id));
  });

  it("computes a story again when its feed, headline, opening or date changed", () => {
    const { kept, computed } = counted();
    const story = storyOf(0);
    kept.read([story]);
    for (const changed of [
      { ...story, feedId: 99 },
      { ...story, title: "Harbor board delays the pier lease vote" },
      { ...story, excerpt: "Corrected: the board met on Wednesday." },
      { ...story, time: story.time + 1 },
    ]) {
      computed.length = 0;
      const features = kept.read([changed]).get(story.id);
      expect(computed).toEqual([story.id]);
      expect(features?.feedId).toBe(changed.feedId);
      expect(features?.time).toBe(changed.time);
    }
  });

  it("computes a story read twice in one window once", () => {
    const { kept, computed } = counted();
    const story = storyOf(0);
    kept.read([story, story]);
    expect(computed).toEqual([story.id]);
  });
});
