/**
 * The production web process of a checkout, as `npm run bench:load` starts it: this checkout, or the
 * built one BENCH_LOAD_AGAINST names, each with its own scripts (sample data, flags, environment),
 * build, data directory and port; and the plain GETs the benchmark sends it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import type * as SampleSite from "../../scripts/sample-site.js";
import type * as WebProcess from "../../scripts/web-process.js";
import { metricsAuthorization } from "../../scripts/sample-site.js";

export interface Checkout {
  /** "ours", or the other checkout's folder name. */
  name: string;
  dir: string;
  port: number;
  origin: string;
  dataDir: string;
  /** Its database on the PostgreSQL server, for the several-process setup. */
  database: string;
  /** Its own scripts/sample-site.js and scripts/web-process.js. */
  sample: typeof SampleSite;
  web: typeof WebProcess;
}

export async function openCheckout(options: {
  name: string;
  dir: string;
  port: number;
  dataDir: string;
  database: string;
}): Promise<Checkout> {
  const dir = path.resolve(options.dir);
  if (!fs.existsSync(path.join(dir, "build/server/index.js"))) {
    throw new Error(`No production build in ${dir}: run \`npm run build\` there first.`);
  }
  const script = (file: string) => import(pathToFileURL(path.join(dir, "scripts", file)).href);
  return {
    ...options,
    dir,
    origin: `http://127.0.0.1:${options.port}`,
    sample: (await script("sample-site.js")) as typeof SampleSite,
    web: (await script("web-process.js")) as typeof WebProcess,
  };
}

/** Stores the sample feeds into the database `env` names, with the checkout's own ingest command. */
export function ingestInto(checkout: Checkout, env: NodeJS.ProcessEnv): boolean {
  // Its command and feeds file are named relative to its folder; ingestFeeds waits for the ingest.
  const here = process.cwd();
  process.chdir(checkout.dir);
  try {
    return checkout.sample.ingestFeeds(env);
  } finally {
    process.chdir(here);
  }
}

/** Children this script stops itself; any other exit of a server during the run is reported. */
const stopping = new Set<ChildProcess>();

export async function startSite(checkout: Checkout, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  // node itself on the compiled server, as `npm start` runs it, not through npm: its pid is the server's, for /proc.
  const child = spawn(process.execPath, checkout.web.WEB_PROCESS_ARGS, {
    cwd: checkout.dir,
    env: checkout.web.webProcessEnv(env),
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.once("exit", (code, signal) => {
    if (!stopping.has(child)) {
      console.error(
        `The site, ${checkout.name} (pid ${child.pid}), stopped during the run: exit code ${code}, signal ${signal} (code 0 after SIGTERM from elsewhere, as its shutdown handler exits 0).`,
      );
    }
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site exited with ${child.exitCode}`);
    try {
      if ((await get(`${checkout.origin}/`)).status === 200) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the site did not answer within 60 s");
}

export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  stopping.add(child);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/**
 * A GET on a connection of its own (no keep-alive pool, whose idle sockets the server may be
 * closing just then): the body exactly as sent to a client that accepts gzip, and the X-Cache header.
 */
export function get(url: string): Promise<{ status: number; body: Buffer; cache: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        url,
        { agent: false, headers: { "accept-encoding": "gzip", ...metricsAuthorization(url) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const raw = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              body: raw,
              cache: String(res.headers["x-cache"] ?? ""),
            });
          });
          res.on("error", reject);
        },
      )
      .on("error", reject);
  });
}

export const text = async (url: string) => {
  const { body } = await get(url);
  return (body[0] === 0x1f && body[1] === 0x8b ? zlib.gunzipSync(body) : body).toString("utf8");
};

/** The sum of a /metrics counter's series on the site at `origin`. */
export async function metric(origin: string, name: string): Promise<number> {
  return (await text(`${origin}/metrics`))
    .split("\n")
    .filter((line) => line.startsWith(name))
    .reduce((n, line) => n + Number(line.split(" ").pop()), 0);
}

export async function waitFor(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      if ((await get(url)).status === 200) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not answer`);
}
