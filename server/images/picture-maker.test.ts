import fs from "node:fs";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { childPictureMaker, inlinePictureMaker, type PictureMaker } from "./picture-maker";

/** The picture maker children of this process (the test's own), by pid, read from /proc. */
function children(): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid ...: the command may hold spaces, so read after its ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
      if (ppid !== process.pid || state === "Z") continue;
      if (fs.readFileSync(`/proc/${name}/cmdline`, "utf8").includes("picture-worker")) {
        found.push(Number(name));
      }
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .toBuffer();

const makers: PictureMaker[] = [];
function maker(options?: Parameters<typeof childPictureMaker>[0]): PictureMaker {
  const made = childPictureMaker(options);
  makers.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(makers.splice(0).map((made) => made.close()));
});

describe("the picture maker's child process", () => {
  it("reads a picture and makes its copies and crops as sharp does in this process", async () => {
    const child = maker();
    const inline = inlinePictureMaker();
    const original = await photo(1600, 900);

    expect(await child.inspect(original)).toEqual(await inline.inspect(original));
    const copy = await child.variant(original, { width: 480, format: "webp" });
    expect(await sharp(copy).metadata()).toMatchObject({ format: "webp", width: 480, height: 270 });
    const crop = await child.crop(original, { width: 1200, height: 630 });
    expect(await sharp(crop).metadata()).toMatchObject({
      format: "jpeg",
      width: 1200,
      height: 630,
    });
    expect(children()).toHaveLength(1);
  });

  it("refuses what is not a photo, as sharp in this process does", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>');
    expect(await maker().inspect(svg)).toMatchObject({ kind: "refused" });
    await expect(
      maker().variant(Buffer.from("not a picture"), { width: 320, format: "jpeg" }),
    ).rejects.toThrow(/unsupported image format/i);
  });

  it("answers jobs in the order asked, one at a time, from one child", async () => {
    const child = maker();
    const originals = await Promise.all([photo(900, 600), photo(700, 700), photo(500, 1000)]);
    const copies = await Promise.all(
      originals.map((original) => child.variant(original, { width: 320, format: "jpeg" })),
    );
    const heights = await Promise.all(
      copies.map(async (copy) => (await sharp(copy).metadata()).height),
    );
    expect(heights).toEqual([213, 320, 640]);
    expect(children()).toHaveLength(1);
  });

  it("fails the job of a child that dies, and the next job starts another", async () => {
    const stopped: string[] = [];
    const child = maker({ onChildStopped: (reason) => stopped.push(reason) });
    const original = await photo(4000, 3000);
    await child.inspect(original); // The child is up.
    const pid = children()[0] ?? 0;
    expect(pid).toBeGreaterThan(0);

    // A slow copy (AVIF of a large photo), its process killed as libvips crashing would end it.
    const slow = child.variant(original, { width: 1200, format: "avif" });
    process.kill(pid, "SIGKILL");
    await expect(slow).rejects.toThrow("The picture maker stopped: killed by SIGKILL");
    expect(stopped).toEqual(["killed by SIGKILL"]);

    const copy = await child.variant(original, { width: 320, format: "webp" });
    expect((await sharp(copy).metadata()).width).toBe(320);
    const now = children();
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(pid);
  });

  it("stops a child whose job takes too long, and the job fails with why", async () => {
    const stopped: string[] = [];
    const child = maker({ jobTimeoutMs: 1, onChildStopped: (reason) => stopped.push(reason) });
    const original = await photo(4000, 3000);
    await expect(child.variant(original, { width: 1200, format: "avif" })).rejects.toThrow(
      "The picture maker stopped: a picture took more than 1 ms",
    );
    expect(stopped).toEqual(["a picture took more than 1 ms"]);
    // A picture the maker cannot finish in time is refused, not a crash of the caller.
    expect(await child.inspect(original)).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("took more than 1 ms"),
    });
    await until(() => children().length === 0);
  });

  it("lets the child go after a quiet spell, giving its memory back", async () => {
    const child = maker({ idleMs: 100 });
    const original = await photo(800, 600);
    await child.variant(original, { width: 320, format: "jpeg" });
    expect(children()).toHaveLength(1);
    await until(() => children().length === 0);
    // The next job starts a new one.
    const copy = await child.variant(original, { width: 160, format: "jpeg" });
    expect((await sharp(copy).metadata()).width).toBe(160);
  });

  it("ends the child when closed", async () => {
    const child = maker();
    await child.inspect(await photo(100, 100));
    expect(children()).toHaveLength(1);
    await child.close();
    expect(children()).toHaveLength(0);
  });
});
