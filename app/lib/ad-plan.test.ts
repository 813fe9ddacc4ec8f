import { describe, expect, it } from "vitest";
import { AD_PLAN, listAdAfter, type PageKind } from "./ad-plan";

const KINDS = Object.keys(AD_PLAN) as PageKind[];

/** The stories (1-based) a unit follows in a list of `shown`, and which of those show on small screens. */
function listAds(kind: PageKind, shown: number) {
  const after: number[] = [];
  const small: number[] = [];
  for (let index = 0; index < shown; index++) {
    const unit = listAdAfter(kind, index, shown);
    if (!unit) continue;
    after.push(index + 1);
    if (unit.small) small.push(index + 1);
  }
  return { after, small };
}

describe("listAdAfter", () => {
  it.each<[PageKind, number, number[], number[]]>([
    // Local News: after every third, never after the last; the first only on small screens.
    ["localNews", 15, [3, 6, 9, 12], [3]],
    ["localNews", 5, [3], [3]],
    // Community: every fourth of the 14 stories below the hero, not after the last of 12.
    ["community", 14, [4, 8, 12], [4]],
    ["community", 12, [4, 8], [4]],
    // Grids: the wide banner after the 6th, on large screens only; none in a list of 5 or 6.
    ["grid", 15, [6], []],
    ["grid", 5, [], []],
    ["grid", 6, [], []],
    ["home", 15, [6], []],
    // Archives: after the 9th.
    ["archives", 12, [9], []],
    ["archives", 9, [], []],
    ["page", 15, [], []],
  ])("%s, %i shown: after %j, small screens %j", (kind, shown, after, small) => {
    expect(listAds(kind, shown)).toEqual({ after, small });
  });
});

describe("AD_PLAN", () => {
  it.each(KINDS)("%s: exactly one banner slot on small screens", (kind) => {
    // A list unit counts once: only its first occurrence shows there.
    const small = AD_PLAN[kind].slots.filter((s) => s.small);
    expect(small).toHaveLength(1);
  });

  it.each(KINDS)("%s: a list unit says where it goes, other slots do not", (kind) => {
    for (const slot of AD_PLAN[kind].slots) {
      const placed = slot.after !== undefined || slot.every !== undefined;
      expect(placed).toBe(slot.position === "list");
    }
  });

  it("shows every sponsor type somewhere", () => {
    const shown = new Set(KINDS.flatMap((k) => (AD_PLAN[k].sponsors ?? []).map((s) => s.sponsor)));
    expect([...shown].sort()).toEqual(["buddhatv", "dunamis", "google"]);
  });
});
