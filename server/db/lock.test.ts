import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirInUseError } from "./lock";

const dirs: string[] = [];
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "news-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("data directory lock", () => {
  it("is taken and released", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, "the test");
    expect(JSON.parse(fs.readFileSync(path.join(dir, "news.lock"), "utf8"))).toEqual({
      pid: process.pid,
      owner: "the test",
    });
    lock.release();
    expect(fs.existsSync(path.join(dir, "news.lock"))).toBe(false);
  });

  it("refuses while another live process holds it", async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      fs.writeFileSync(
        path.join(dir, "news.lock"),
        JSON.stringify({ pid: other.pid, owner: "the web server" }),
      );
      expect(() => acquireDataDirLock(dir, "`news ingest`")).toThrow(DataDirInUseError);
      expect(() => acquireDataDirLock(dir, "`news ingest`")).toThrow(
        `is in use by the web server (process ${other.pid})`,
      );
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("takes over a lock left by a process that died (kill -9)", async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    const pid = other.pid;
    other.kill("SIGKILL");
    await new Promise((resolve) => other.on("exit", resolve));
    fs.writeFileSync(path.join(dir, "news.lock"), JSON.stringify({ pid, owner: "the web server" }));
    const lock = acquireDataDirLock(dir, "the test");
    expect(JSON.parse(fs.readFileSync(path.join(dir, "news.lock"), "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("treats an unreadable lock file as stale", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "news.lock"), "{half-writ");
    expect(() => acquireDataDirLock(dir, "the test").release()).not.toThrow();
  });

  // Before, a lock file was made and then written (another process could read it empty, take it
  // for stale and remove it), and a stale lock could be removed by two processes, one of them
  // removing the lock the other had just taken: 8 processes on a stale lock gave two or three
  // holders in 6 rounds of 10.
  it("goes to one process of many that start at once on a stale lock", async () => {
    for (let round = 0; round < 4; round++) {
      const dir = tempDir();
      fs.writeFileSync(
        path.join(dir, "news.lock"),
        JSON.stringify({ pid: 2 ** 22 + 1, owner: "a process that died" }),
      );
      // Each waits for the same moment, tries, says how it went, and keeps what it took until
      // every one has said (stdin closed), so no one finds a holder gone.
      const start = Date.now() + 3000;
      const script = `
        const { acquireDataDirLock } = await import(${JSON.stringify(path.resolve("server/db/lock.ts"))});
        while (Date.now() < ${start}) {}
        try { acquireDataDirLock(${JSON.stringify(dir)}, "racer"); console.log("took"); }
        catch (error) { console.log(error.name); }
        process.stdin.resume();
        process.stdin.on("end", () => process.exit(0));`;
      const racers = Array.from({ length: 8 }, () =>
        spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]),
      );
      const said = await Promise.all(
        racers.map(
          (racer) =>
            new Promise<string>((resolve) => {
              let out = "";
              racer.stdout.on("data", (chunk: Buffer) => {
                out += chunk.toString();
                if (out.includes("\n")) resolve(out.trim());
              });
              racer.on("exit", () => resolve(out.trim()));
            }),
        ),
      );
      for (const racer of racers) racer.stdin.end();
      await Promise.all(racers.map((racer) => new Promise((resolve) => racer.on("exit", resolve))));
      expect(
        said.filter((s) => s === "took"),
        `round ${round}: ${said.join(", ")}`,
      ).toHaveLength(1);
      expect(said.filter((s) => s !== "took")).toEqual(Array(7).fill("DataDirInUseError"));
      expect(fs.readdirSync(dir)).toEqual(["news.lock"]);
    }
  }, 120_000);
});
