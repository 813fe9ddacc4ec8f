// What the test helpers ask of the machine: whether a command is there, and Debian's packages.
import { execFileSync } from "node:child_process";

/** Where the command `name` is (on PATH, or a path that is there), or undefined. */
export function onPath(name) {
  try {
    return (
      execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim() || undefined
    );
  } catch {
    return undefined; // not on PATH
  }
}

/**
 * Installs Debian's package `name` for `what` when it can (as root, with apt-get), and says
 * `onFailure` when that fails; does nothing where it cannot.
 */
export function installDebianPackage(name, what, onFailure) {
  if (process.getuid?.() !== 0 || !onPath("apt-get")) return;
  console.log(`Installing Debian's ${name} package for ${what}...`);
  try {
    execFileSync(
      "sh",
      ["-c", `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${name}`],
      { stdio: "inherit" },
    );
  } catch {
    console.log(onFailure);
  }
}
