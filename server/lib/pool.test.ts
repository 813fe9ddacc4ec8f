import { describe, expect, it } from "vitest";
import { runPool } from "./pool";

function deferredTask() {
  let active = 0;
  let maxActive = 0;
  const perHost = new Map<string, number>();
  const maxPerHost = new Map<string, number>();
  return {
    stats: () => ({ maxActive, maxPerHost: Object.fromEntries(maxPerHost) }),
    async run(item: { host: string; id: number }) {
      active++;
      maxActive = Math.max(maxActive, active);
      perHost.set(item.host, (perHost.get(item.host) ?? 0) + 1);
      maxPerHost.set(
        item.host,
        Math.max(maxPerHost.get(item.host) ?? 0, perHost.get(item.host) ?? 0),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
      perHost.set(item.host, (perHost.get(item.host) ?? 1) - 1);
      return item.id * 10;
    },
  };
}

describe("runPool", () => {
  it("keeps to the global and per-host limits and returns results in order", async () => {
    const items = Array.from({ length: 20 }, (_, id) => ({
      id,
      host: ["a", "b", "c", "d"][id % 4] ?? "a",
    }));
    const task = deferredTask();
    const results = await runPool(
      items,
      (i) => i.host,
      { global: 6, perHost: 2 },
      (i) => task.run(i),
    );
    expect(results).toEqual(items.map((i) => i.id * 10));
    expect(task.stats().maxActive).toBe(6);
    expect(Math.max(...Object.values(task.stats().maxPerHost))).toBe(2);
  });

  it("lets one host's queue wait while others go on", async () => {
    const items = Array.from({ length: 8 }, (_, id) => ({ id, host: id < 6 ? "slow" : "other" }));
    const task = deferredTask();
    await runPool(
      items,
      (i) => i.host,
      { global: 6, perHost: 2 },
      (i) => task.run(i),
    );
    expect(task.stats().maxPerHost).toEqual({ slow: 2, other: 2 });
    expect(task.stats().maxActive).toBe(4);
  });

  it("handles no items", async () => {
    expect(
      await runPool(
        [],
        () => "x",
        { global: 2, perHost: 1 },
        async () => 1,
      ),
    ).toEqual([]);
  });
});
