// After `react-router build`: writes file.br and file.gz beside every script, stylesheet and SVG of
// the client build, so the server sends them compressed without compressing on each request.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const dir = path.resolve("build/client");
const COMPRESSIBLE = /\.(js|css|svg|json)$/;

function* files(folder) {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

if (!fs.existsSync(dir)) {
  console.error(`No client build at ${dir}: run react-router build first.`);
  process.exit(1);
}
let count = 0;
let before = 0;
let after = 0;
for (const file of files(dir)) {
  const body = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  count++;
  before += body.length;
  after += br.length;
}
console.log(
  `Precompressed ${count} files: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB with brotli.`,
);
