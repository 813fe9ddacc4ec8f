// Compiles the web process (server/main.ts and what it imports) into build/web/main.js, so production
// runs plain JavaScript: no TypeScript compiler in memory or in the start-up time. Packages stay in
// node_modules; the files the server reads beside its own code are copied next to it.
import fs from "node:fs";
import { build } from "esbuild";

const OUT_DIR = "build/web";

fs.rmSync(OUT_DIR, { recursive: true, force: true });
await build({
  // The picture maker's child process (server/images/picture-maker.ts) beside the web process.
  entryPoints: { main: "server/main.ts", "picture-worker": "server/images/picture-worker.ts" },
  outdir: OUT_DIR,
  bundle: true,
  // main.js registers a resolution hook before it imports the rest, so the rest must stay a chunk
  // of its own: a single file would import React Router before the hook is in place.
  splitting: true,
  chunkNames: "[name]-[hash]",
  platform: "node",
  format: "esm",
  target: "node20.19",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
fs.cpSync("server/db/migrations", `${OUT_DIR}/migrations`, { recursive: true });
fs.cpSync("server/runtime", `${OUT_DIR}/runtime`, { recursive: true });
console.log(`Compiled the web process into ${OUT_DIR}/main.js`);
