/** What any Node server, and Express alone, can do with the same bytes: bench:load's baselines. */
import { spawn, type ChildProcess } from "node:child_process";
import { waitFor } from "./site";

/** A one-route server answering every GET with the gzip bytes of $BODY_FILE on 127.0.0.1:`port`. */
const baseline = (port: number) => `
const fs = require("node:fs");
const http = require("node:http");
const body = fs.readFileSync(process.env.BODY_FILE);
const headers = { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip", "Content-Length": body.length };
if (process.env.MODE === "express") {
  const app = require("express")();
  app.get("/", (_req, res) => { res.set(headers); res.end(body); });
  app.listen(${port}, "127.0.0.1");
} else {
  http.createServer((_req, res) => { res.writeHead(200, headers); res.end(body); }).listen(${port}, "127.0.0.1");
}`;

/** A one-route server answering every GET with the saved gzip bytes: bare node:http or Express 5. */
export async function startBaseline(
  mode: "node" | "express",
  bodyFile: string,
  port: number,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", baseline(port)], {
    env: { ...process.env, NODE_ENV: "production", MODE: mode, BODY_FILE: bodyFile },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitFor(`http://127.0.0.1:${port}/`);
  return child;
}
