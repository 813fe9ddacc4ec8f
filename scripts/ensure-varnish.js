// Makes sure varnishd is there for the Varnish test (server/cache/varnish.test.ts): installs
// Debian's varnish package when it can (as root, with apt-get), otherwise says exactly what to
// install. The test itself fails, never skips, when varnishd is missing.
import { installDebianPackage, onPath } from "./system-package.js";

const hasVarnishd = () => Boolean(onPath("varnishd") ?? onPath("/usr/sbin/varnishd"));

if (hasVarnishd()) process.exit(0);

installDebianPackage("varnish", "the Varnish test", "Installing it failed.");

if (hasVarnishd()) process.exit(0);
console.error(
  "The Varnish test needs varnishd (Varnish 7) and none was found.\n" +
    "Install it (Debian/Ubuntu: `sudo apt-get install varnish`) or put varnishd on the PATH.",
);
process.exit(1);
