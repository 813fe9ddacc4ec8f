import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../http/free-port";

/**
 * For tests: a real varnishd on a free loopback port with config/varnish/default.vcl, in front of
 * the site at `backendPort`. Throws, saying how to install it, when varnishd is missing: the tests
 * fail, never skip (`node scripts/ensure-varnish.js` installs it).
 */
export async function startVarnish(
  backendPort: number,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const varnishd = ["/usr/sbin/varnishd", "/usr/local/sbin/varnishd"].find((file) =>
    fs.existsSync(file),
  );
  if (!varnishd) {
    throw new Error(
      "varnishd is not installed: run `node scripts/ensure-varnish.js` (as root it installs Debian's varnish package).",
    );
  }
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "varnish-test-"));
  // varnishd drops to its own user: it must read the configuration and write its work folder.
  fs.chmodSync(workDir, 0o777);
  const vcl = fs
    .readFileSync("config/varnish/default.vcl", "utf8")
    .replace('.port = "3000";', `.port = "${backendPort}";`);
  if (!vcl.includes(`.port = "${backendPort}";`)) {
    throw new Error("default.vcl has no backend on port 3000 to point at the test's site");
  }
  const vclFile = path.join(workDir, "default.vcl");
  fs.writeFileSync(vclFile, vcl, { mode: 0o644 });
  // The configuration must compile: its errors are the test's, said at once.
  const check = spawnSync(varnishd, ["-C", "-f", vclFile, "-n", path.join(workDir, "c")], {
    encoding: "utf8",
  });
  if (check.status !== 0) throw new Error(`default.vcl does not compile:\n${check.stderr}`);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = ["-F", "-n", path.join(workDir, "n"), "-a", `127.0.0.1:${port}`, "-f", vclFile];
  args.push("-s", "malloc,32m", "-T", "none", "-p", "ban_lurker_sleep=0.01");
  let output = "";
  const child = spawn(varnishd, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await fetch(`${url}/varnish-test-probe`).then(
      () => true,
      () => false,
    );
    if (up) return { url, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`varnishd did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
