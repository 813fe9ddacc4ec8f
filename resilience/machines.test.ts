import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { machinesVcl } from "./machines/varnish";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "machines-vcl-"));
// varnishd reads the file as its own user.
fs.chmodSync(work, 0o777);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("the machines check's VCL", () => {
  const shipped = fs.readFileSync("config/varnish/default.vcl", "utf8");
  const vcl = machinesVcl(shipped, [5201, 5202]);

  it("is the shipped VCL with its backend replaced by both machines behind a director", () => {
    expect(vcl).not.toContain("backend default");
    expect(vcl).toMatch(/backend machine1 \{\s*\.host = "127\.0\.0\.1";\s*\.port = "5201";/);
    expect(vcl).toMatch(/backend machine2 \{\s*\.host = "127\.0\.0\.1";\s*\.port = "5202";/);
    expect(vcl).toContain("directors.round_robin()");
    expect(vcl).toContain("set req.backend_hint = machines.backend();");
    // Everything else as shipped: the bans by key, the lifetimes, the headers.
    const rest = shipped.slice(shipped.indexOf("acl purgers"));
    expect(vcl).toContain(rest);
  });

  it("compiles with varnishd (node scripts/ensure-varnish.js installs it)", () => {
    const varnishd = ["/usr/sbin/varnishd", "/usr/local/sbin/varnishd"].find((file) =>
      fs.existsSync(file),
    );
    expect(varnishd, "varnishd is not installed").toBeDefined();
    const file = path.join(work, "machines.vcl");
    fs.writeFileSync(file, vcl, { mode: 0o644 });
    const compiled = spawnSync(
      varnishd ?? "varnishd",
      ["-C", "-f", file, "-n", path.join(work, "n")],
      {
        encoding: "utf8",
      },
    );
    // -C prints the C it compiled to on stderr; an error ends it with a status.
    expect(compiled.status, compiled.stderr.slice(0, 2000)).toBe(0);
  });

  it("refuses a VCL without the backend it replaces", () => {
    expect(() => machinesVcl("vcl 4.1;\n", [1, 2])).toThrow(/backend default/);
  });
});
