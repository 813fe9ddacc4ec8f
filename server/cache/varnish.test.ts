import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/free-port";
import { PurgeError } from "./purge";
import { varnishPurger } from "./varnish";

/**
 * config/varnish/default.vcl in a real varnishd, in front of a small site whose pages say their keys
 * as ours do: a page is kept, a purge by key makes the next request fetch it again, and pages under
 * other keys stay kept. Without varnishd the test fails and says how to get it
 * (`node scripts/ensure-varnish.js`).
 */

const VARNISHD = ["/usr/sbin/varnishd", "/usr/local/sbin/varnishd"].find((file) =>
  fs.existsSync(file),
);

/** Each page's keys, as the site's routes declare them. */
const PAGES: Record<string, string> = {
  "/": "site home article-harbor",
  "/sports": "site category-sports article-match",
  "/article/harbor": "site article-harbor",
};

let site: http.Server;
let varnishd: ChildProcess | undefined;
let workDir: string;
let varnish: string;
const renders = new Map<string, number>();

beforeAll(async () => {
  if (!VARNISHD) {
    throw new Error(
      "varnishd is not installed: run `node scripts/ensure-varnish.js` (as root it installs Debian's varnish package).",
    );
  }
  site = http.createServer((req, res) => {
    const page = req.url ?? "/";
    const count = (renders.get(page) ?? 0) + 1;
    renders.set(page, count);
    const keys = PAGES[page];
    if (!keys) {
      res.writeHead(404, { "Cache-Control": "no-store" }).end("not found");
      return;
    }
    res
      .writeHead(200, {
        "Content-Type": "text/plain",
        "Cache-Control": "public, no-cache",
        "CDN-Cache-Control": "public, max-age=60, stale-while-revalidate=600",
        "Surrogate-Control": "max-age=60, stale-while-revalidate=600",
        "Surrogate-Key": keys,
        "Cache-Tag": keys.replaceAll(" ", ","),
      })
      .end(`${page} render ${count}`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const sitePort = (site.address() as AddressInfo).port;

  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "varnish-test-"));
  // varnishd drops to its own user: it must read the configuration and write its work folder.
  fs.chmodSync(workDir, 0o777);
  const vcl = fs
    .readFileSync("config/varnish/default.vcl", "utf8")
    .replace('.port = "3000";', `.port = "${sitePort}";`);
  expect(vcl).toContain(`.port = "${sitePort}";`);
  const vclFile = path.join(workDir, "default.vcl");
  fs.writeFileSync(vclFile, vcl, { mode: 0o644 });

  const port = await freePort();
  varnish = `http://127.0.0.1:${port}`;
  const args = ["-F", "-n", path.join(workDir, "n"), "-a", `127.0.0.1:${port}`, "-f", vclFile];
  args.push("-s", "malloc,16m", "-T", "none", "-p", "ban_lurker_sleep=0.01");
  // The configuration must compile: its errors are the test's, said at once.
  const check = spawnSync(VARNISHD, ["-C", "-f", vclFile, "-n", path.join(workDir, "c")], {
    encoding: "utf8",
  });
  if (check.status !== 0) throw new Error(`default.vcl does not compile:\n${check.stderr}`);
  let output = "";
  varnishd = spawn(VARNISHD, args, { stdio: ["ignore", "pipe", "pipe"] });
  varnishd.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  varnishd.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await fetch(`${varnish}/nothing`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (varnishd.exitCode !== null || Date.now() > deadline) {
      throw new Error(`varnishd did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 30_000);

afterAll(async () => {
  if (varnishd && varnishd.exitCode === null) {
    const stopped = new Promise((resolve) => varnishd?.once("exit", resolve));
    varnishd.kill("SIGTERM");
    await stopped;
  }
  await new Promise((resolve) => site?.close(resolve));
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

async function get(page: string) {
  const response = await fetch(`${varnish}${page}`);
  return { text: await response.text(), headers: response.headers, status: response.status };
}

describe("Varnish with config/varnish/default.vcl", () => {
  it("keeps pages by Surrogate-Control, and purges by key exactly the pages that name it", async () => {
    expect((await get("/")).text).toBe("/ render 1");
    expect((await get("/sports")).text).toBe("/sports render 1");
    expect((await get("/article/harbor")).text).toBe("/article/harbor render 1");
    // Kept: the site is not asked again, although browsers were told `no-cache`.
    const again = await get("/");
    expect(again.text).toBe("/ render 1");
    expect(Number(again.headers.get("age"))).toBeGreaterThanOrEqual(0);
    // What only the cache reads is not passed on; the browser's Cache-Control is.
    expect(again.headers.get("surrogate-key")).toBeNull();
    expect(again.headers.get("surrogate-control")).toBeNull();
    expect(again.headers.get("cache-tag")).toBeNull();
    expect(again.headers.get("cache-control")).toBe("public, no-cache");

    // The story on the home page changed: its page and the home page go, the sports page stays.
    await varnishPurger([varnish]).send(["article-harbor"]);
    expect((await get("/")).text).toBe("/ render 2");
    expect((await get("/article/harbor")).text).toBe("/article/harbor render 2");
    expect((await get("/sports")).text).toBe("/sports render 1");

    // A key is a whole word: `category-sport` names no page.
    await varnishPurger([varnish]).send(["category-sport", "article-harb"]);
    expect((await get("/sports")).text).toBe("/sports render 1");
    expect((await get("/")).text).toBe("/ render 2");

    // Several keys in one ban.
    await varnishPurger([varnish]).send(["category-sports", "home"]);
    expect((await get("/sports")).text).toBe("/sports render 2");
    expect((await get("/")).text).toBe("/ render 3");
    expect((await get("/article/harbor")).text).toBe("/article/harbor render 2");
  });

  it("refuses a ban without keys, or with anything but key words, and bans nothing", async () => {
    await get("/sports");
    const before = renders.get("/sports");
    for (const keys of ["", ".*", "home|site", "sports)"]) {
      const response = await fetch(`${varnish}/`, {
        method: "BAN",
        headers: keys ? { "X-Purge-Keys": keys } : {},
      });
      expect(response.status).toBe(400);
    }
    await get("/sports");
    expect(renders.get("/sports")).toBe(before);
    // The purger reports a refused ban as not worth retrying.
    await expect(varnishPurger([varnish]).send(["Not A Key"])).rejects.toMatchObject({
      retryable: false,
    });
    await expect(varnishPurger([varnish]).send(["Not A Key"])).rejects.toBeInstanceOf(PurgeError);
  });
});
