import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { S3StoreConfig } from "../config";

/** s3rver's fixed credentials (it checks every request's signature with them). */
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3Server {
  /** `http://127.0.0.1:<port>`, the same across `stop` and `start`. */
  endpoint: string;
  bucket: string;
  /** A picture store's configuration for this server (path-style). */
  storeConfig(overrides?: Partial<S3StoreConfig>): S3StoreConfig;
  /** The environment that makes the site use this server (PICTURE_STORE=s3 and the rest). */
  env(): Record<string, string>;
  /** Stops answering: the port is closed and open connections are cut. The objects stay. */
  stop(): Promise<void>;
  /** Answers again on the same port, with the same objects. */
  start(): Promise<void>;
  /** Stops for good and removes its folder. */
  close(): Promise<void>;
}

/**
 * s3rver in a process of its own, printing its port once it listens. Node runs it with OpenSSL's
 * legacy provider: s3rver signs its listing's continuation tokens with DES, which OpenSSL 3 has
 * only there (without it, any listing longer than a page answers 500).
 */
const SERVER_SCRIPT = `
const S3rver = require(process.env.S3RVER_MODULE);
const server = new S3rver({
  address: "127.0.0.1",
  port: Number(process.env.S3RVER_PORT),
  directory: process.env.S3RVER_DIR,
  silent: true,
  vhostBuckets: false,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET }],
});
server.run().then((address) => process.stdout.write(address.port + "\\n"));
`;

/**
 * A real S3-compatible server (s3rver) on a free port of 127.0.0.1, in a child process, keeping
 * its objects in a folder of its own, with one empty bucket: for tests of the S3 picture store,
 * alone or shared by several copies of the site. `stop` ends the process, as a store that went
 * away; `start` brings it back on the same port with the same objects.
 */
export async function startS3Server(options: { bucket?: string } = {}): Promise<TestS3Server> {
  const bucket = options.bucket ?? "pictures";
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const module = createRequire(import.meta.url).resolve("s3rver");
  let port = 0;
  let child: ChildProcess | null = null;

  async function start() {
    if (child) return;
    const started = spawn(process.execPath, ["--openssl-legacy-provider", "-e", SERVER_SCRIPT], {
      env: {
        PATH: process.env.PATH,
        S3RVER_MODULE: module,
        S3RVER_PORT: String(port),
        S3RVER_DIR: directory,
        S3RVER_BUCKET: bucket,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    child = started;
    port = await new Promise<number>((resolve, reject) => {
      let out = "";
      started.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(Number(out.trim()));
      });
      started.once("exit", (code) => reject(new Error(`s3rver stopped at start (${code})`)));
    });
  }

  async function stop() {
    const running = child;
    if (!running) return;
    child = null;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    // At once, as a machine that went away: its connections are cut.
    running.kill("SIGKILL");
    await exited;
  }

  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    storeConfig: (overrides = {}) => ({
      endpoint,
      bucket,
      region: "us-east-1",
      prefix: "",
      forcePathStyle: true,
      credentials: CREDENTIALS,
      // Generous: a busy machine running the whole suite answers slowly; tests of timeouts set theirs.
      timeoutMs: 5000,
      ...overrides,
    }),
    env: () => ({
      PICTURE_STORE: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    }),
    stop,
    start,
    async close() {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * A server on a free port of 127.0.0.1 that takes connections and never answers: a store that
 * hangs. `close` cuts the connections it holds.
 */
export async function startSilentServer(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // Read and drop what comes, as a server stuck before its answer would.
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
