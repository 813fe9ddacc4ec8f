// Makes sure varnishd is there for the Varnish test (server/cache/varnish.test.ts): installs
// Debian's varnish package when it can (as root, with apt-get), otherwise says exactly what to
// install. The test itself fails, never skips, when varnishd is missing.
import { execFileSync } from "node:child_process";

const has = (command) => {
  try {
    execFileSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
const hasVarnishd = () => has("varnishd") || has("/usr/sbin/varnishd");

if (hasVarnishd()) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (isRoot && has("apt-get")) {
  console.log("Installing Debian's varnish package for the Varnish test...");
  try {
    execFileSync(
      "sh",
      ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq varnish"],
      { stdio: "inherit" },
    );
  } catch {
    console.log("Installing it failed.");
  }
}

if (hasVarnishd()) process.exit(0);
console.error(
  "The Varnish test needs varnishd (Varnish 7) and none was found.\n" +
    "Install it (Debian/Ubuntu: `sudo apt-get install varnish`) or put varnishd on the PATH.",
);
process.exit(1);
