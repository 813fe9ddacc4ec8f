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
});
