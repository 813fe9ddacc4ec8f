import { describe, expect, it } from "vitest";
import { SharedRenders } from "./page-handler";

/** A render the test finishes when it wants, counting how often one was started. */
function gatedRenders() {
  const finish: ((page: string) => void)[] = [];
  let started = 0;
  const render = () => {
    started += 1;
    return new Promise<string>((resolve) => finish.push(resolve));
  };
  return { render, finish, started: () => started };
}

describe("renders shared by readers asking at the same moment", () => {
  it("start once for one address, and once more for another", async () => {
    const renders = new SharedRenders<string>();
    const gate = gatedRenders();
    const first = renders.run("/", 0, gate.render);
    const second = renders.run("/", 0, gate.render);
    const other = renders.run("/sports", 0, gate.render);
    expect(gate.started()).toBe(2);
    gate.finish[0]?.("home");
    gate.finish[1]?.("sports");
    expect(await Promise.all([first, second, other])).toEqual(["home", "home", "sports"]);
    expect(renders.size).toBe(0);
  });

  it("a reader who comes after the cache was emptied gets a render of their own", async () => {
    const renders = new SharedRenders<string>();
    const gate = gatedRenders();
    const before = renders.run("/", 4, gate.render);
    // A story is taken down while that render is under way: the cache is emptied (generation 5).
    const after = renders.run("/", 5, gate.render);
    const alongside = renders.run("/", 5, gate.render);
    expect(gate.started()).toBe(2);
    gate.finish[1]?.("without the story");
    gate.finish[0]?.("with the story");
    expect(await after).toBe("without the story");
    expect(await alongside).toBe("without the story");
    // The reader who asked before the take-down still gets the page as it was when they asked.
    expect(await before).toBe("with the story");
    expect(renders.size).toBe(0);
  });

  it("a failed render fails its readers only, and the next reader starts again", async () => {
    const renders = new SharedRenders<string>();
    const failing = renders.run("/", 0, () => Promise.reject(new Error("database down")));
    const joined = renders.run("/", 0, () => Promise.resolve("never"));
    await expect(failing).rejects.toThrow("database down");
    await expect(joined).rejects.toThrow("database down");
    expect(await renders.run("/", 0, () => Promise.resolve("back"))).toBe("back");
  });
});
