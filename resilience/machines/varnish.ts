/** Varnish in front of the machines check's two machines: its VCL, its start, its cache hits. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startProcess, type Answer, type Child } from "../processes";

/** Where Debian's varnish package, or a Varnish 7 built by hand, puts varnishd. */
export const VARNISHD = ["/usr/sbin/varnishd", "/usr/local/sbin/varnishd"];

/**
 * config/varnish/default.vcl with its one backend replaced by the two machines behind a
 * round-robin director; everything else (bans by key, lifetimes, headers) as the project ships it.
 */
export function machinesVcl(defaultVcl: string, ports: readonly [number, number]): string {
  const backend = /backend default \{[^}]*\}\n/;
  if (!backend.test(defaultVcl)) throw new Error("default.vcl has no `backend default { … }`");
  const backends = ports
    .map(
      (port, i) =>
        `backend machine${i + 1} {\n    .host = "127.0.0.1";\n    .port = "${port}";\n}\n`,
    )
    .join("\n");
  return `${defaultVcl.replace(backend, `import directors;\n\n${backends}`)}
# Added for the check: both machines behind one Varnish, in turn.
sub vcl_init {
    new machines = directors.round_robin();
${ports.map((_, i) => `    machines.add_backend(machine${i + 1});`).join("\n")}
}

sub vcl_recv {
    set req.backend_hint = machines.backend();
}
`;
}

/**
 * `varnishd` on 127.0.0.1:`port` with the project's VCL and both machines behind it, its files in
 * `dir` (made here, open to varnishd's own user).
 */
export function startVarnish(
  varnishd: string,
  dir: string,
  port: number,
  machinePorts: readonly [number, number],
): Child {
  fs.mkdirSync(dir, { mode: 0o777 });
  fs.chmodSync(dir, 0o777);
  const vclFile = path.join(dir, "machines.vcl");
  fs.writeFileSync(
    vclFile,
    machinesVcl(fs.readFileSync("config/varnish/default.vcl", "utf8"), machinePorts),
    { mode: 0o644 },
  );
  const compiled = spawnSync(varnishd, ["-C", "-f", vclFile, "-n", path.join(dir, "c")], {
    encoding: "utf8",
  });
  if (compiled.status !== 0)
    throw new Error(`the check's VCL does not compile:\n${compiled.stderr}`);
  return startProcess(
    "varnish",
    varnishd,
    [
      "-F",
      "-n",
      path.join(dir, "n"),
      "-a",
      `127.0.0.1:${port}`,
      "-f",
      vclFile,
      "-s",
      "malloc,64m",
      "-T",
      "none",
      "-p",
      "ban_lurker_sleep=0.01",
    ],
    { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    { group: true },
  );
}

/** Whether Varnish answered from its cache (X-Varnish names two requests on a hit). */
export const varnishHit = (answer: Answer) =>
  String(answer.headers["x-varnish"] ?? "")
    .trim()
    .split(/\s+/).length === 2;
