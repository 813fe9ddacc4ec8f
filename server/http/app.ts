import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import compression from "compression";
import express from "express";
import { pinoHttp } from "pino-http";
import type { ServerBuild } from "react-router";
import type { Config } from "../config";
import { POST_LIMITS } from "../../shared/post-fields";
import { inlinePictureMaker, type PictureMaker } from "../images/picture-maker";
import { pictureRoutes } from "../images/route";
import { oneClickUnsubscribe, UNSUBSCRIBE_PATH } from "../newsletter/one-click";
import type { PictureStore } from "../images/store";
import { pictureStoreFor } from "../images/store-for";
import { prepareDecoyHash } from "../staff/passwords";
import type { Logger } from "../logger";
import { readiness } from "./health";
import type { AppServices } from "./load-context";
import type { Metrics } from "./metrics";
import type { PageCache } from "./page-cache";
import { cachedPageListener, chooseEncoding } from "./cached-pages";
import { pageHandler } from "./page-handler";
import {
  allowedMethods,
  bodyLimit,
  pagePolicy,
  sameOriginPosts,
  securityHeaders,
  securityHeaderValues,
  wellFormedPaths,
} from "./security";

const BUILD_DIR = path.resolve("build");

/** The largest form a reader can send (a long contact message is about 5 KB). */
export const FORM_BODY_LIMIT = 32 * 1024;

/** A newsroom form with a picture: the picture's limit and room for the form's other fields. */
const uploadBodyLimit = (config: Config) =>
  config.pictures.uploadMaxBytes + FORM_BODY_LIMIT + POST_LIMITS.body * 4;

export interface AppOptions {
  /** The rendered-page cache; null or absent renders every request. */
  pageCache?: PageCache | null;
  metrics?: Metrics;
  /** Where feed pictures are kept; the folder in the configuration when absent. */
  pictures?: PictureStore;
  /** Makes the pictures' copies; sharp in this process when absent. */
  pictureMaker?: PictureMaker;
}

/** The first three parts of an IPv4 address or four groups of an IPv6 one: enough to debug, not to identify. */
function maskAddress(address: string | undefined): string {
  if (!address) return "unknown";
  const v4 = /(\d+\.\d+\.\d+)\.\d+$/.exec(address);
  if (v4) return `${v4[1]}.0`;
  return `${address.split(":").slice(0, 4).join(":")}::`;
}

/** pino-http's stand-in for an error when a response is 5xx without one (see requestLogging). */
const SYNTHETIC_ERROR = /^failed with status code \d+$/;

/** A request as its log line shows it: the path without its query, the address masked. */
const loggedRequest = (req: { id: string; method?: string; url?: string; address?: string }) => ({
  id: req.id,
  method: req.method,
  path: req.url?.split("?")[0],
  client: maskAddress(req.address),
});

/**
 * One log line per request, with its id (also sent as X-Request-Id) and no personal data: the path
 * without its query, a masked address, no headers or cookies. A 5xx answered on purpose (a 503
 * while the database is away, whose cause a loader already logged) is logged at error level with
 * its status, without the made-up error and stack trace pino-http would attach.
 */
export function requestLogging(logger: Logger): express.RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    serializers: {
      req: (req: { id: string; method: string; url: string; remoteAddress?: string }) =>
        loggedRequest({ ...req, address: req.remoteAddress }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
    customErrorObject: (_req, _res, error, fields: Record<string, unknown>) => {
      if (!SYNTHETIC_ERROR.test(error.message)) return fields;
      const { err: _synthetic, ...rest } = fields;
      return rest;
    },
    customErrorMessage: (_req, res, error) =>
      SYNTHETIC_ERROR.test(error.message) ? "request completed" : "request errored",
    autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/metrics" },
  });
}

/** What a reader is told when the server itself fails (a page's own errors render in the page). */
export const SERVER_ERROR_MESSAGE =
  "Something went wrong on our side. Please try again in a moment.";

/**
 * The last handler: an error nothing else answered is logged once, in the request's log line with
 * its stack (pino-http reads `res.err`), and the reader gets a short message with the request's
 * reference, never the error itself.
 */
export function serverError(): express.ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      // Too late for an answer of our own: Express closes the connection.
      next(error);
      return;
    }
    res.err = error instanceof Error ? error : new Error(String(error));
    res.setHeader("Cache-Control", "no-store");
    res
      .status(500)
      .type("text/plain")
      .send(`${SERVER_ERROR_MESSAGE}\n\nReference: ${String(req.id)}\n`);
  };
}

/**
 * The Express app around React Router: request logs and metrics, health endpoints, feed pictures
 * (server/images), compression, static files (precompressed where the build made .br/.gz files),
 * then every page, through the page cache. In development Vite serves the modules and reloads them.
 */
export async function createApp(
  services: AppServices,
  options: AppOptions = {},
): Promise<express.Express> {
  const { config, logger, db } = services;
  const metrics = options.metrics;
  // Before the first sign-in: its answer must take as long as any other's.
  await prepareDecoyHash();
  const app = express();
  app.disable("x-powered-by");
  // Behind a reverse proxy its X-Forwarded-For names the client; only as many hops as configured.
  app.set("trust proxy", config.trustProxyHops);
  app.use(securityHeaders(config));

  app.use(requestLogging(logger));
  if (metrics) {
    app.use((req, res, next) => {
      const started = process.hrtime.bigint();
      res.on("finish", () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        metrics.observeRequest(req.method, req.path, res.statusCode, seconds);
      });
      next();
    });
  }

  app.use(allowedMethods());

  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    const state = await readiness(db);
    res.setHeader("Cache-Control", "no-store");
    res.status(state.ready ? 200 : 503).json(state);
  });
  if (metrics && config.metricsToken) {
    app.get("/metrics", bearer(config.metricsToken), async (_req, res) => {
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Content-Type", metrics.registry.contentType);
      res.end(await metrics.render());
    });
  }

  // Pictures are compressed already; their routes come before compression and the pages.
  const pictureStore = options.pictures ?? pictureStoreFor(config.pictures);
  const pictureMaker = options.pictureMaker ?? inlinePictureMaker();
  app.use(pictureRoutes(pictureStore, pictureMaker));
  app.use(compression());

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (config.nodeEnv === "production") {
    const assets = path.join(BUILD_DIR, "client/assets");
    // Fingerprinted assets never change under the same name; the build wrote .br and .gz beside them.
    app.use("/assets", precompressed(assets));
    app.use("/assets", express.static(assets, { immutable: true, maxAge: "1y" }));
    app.use(builtFiles(path.join(BUILD_DIR, "client"), { maxAge: "1h" }));
    build = (await import(path.join(BUILD_DIR, "server/index.js"))) as ServerBuild;
  } else {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(devServer.middlewares);
    build = () =>
      devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  }

  // A mail program's one-click unsubscribe comes from its own origin: answered before the check.
  app.post(UNSUBSCRIBE_PATH, oneClickUnsubscribe(db));
  // A route may ask for the larger upload limit (its handle's `body`); no body may be larger.
  const bodyLimits = { upload: uploadBodyLimit(config) };
  app.use(
    wellFormedPaths(),
    sameOriginPosts(config),
    bodyLimit(Math.max(FORM_BODY_LIMIT, ...Object.values(bodyLimits))),
  );
  app.use(
    pageHandler({
      build,
      mode: config.nodeEnv === "production" ? "production" : "development",
      // Loaders log through the request's logger, so their lines carry its id.
      loadContext: (req) => ({
        ...services,
        pictures: pictureStore,
        pictureMaker,
        logger: req.log,
        clientAddress: req.ip ?? "unknown",
        requestId: String(req.id),
      }),
      cache: options.pageCache ?? null,
      observe: metrics ? (event) => metrics.observePage(event) : undefined,
      onRefreshError: (error, req) =>
        req.log.error({ err: error }, "a stale page could not be rendered again"),
      policy: (inlineScripts) => pagePolicy(inlineScripts, config),
      bodyLimit: FORM_BODY_LIMIT,
      bodyLimits,
    }),
  );
  app.use(serverError());
  return app;
}

/**
 * Lets through a request that carries `Authorization: Bearer <token>`, compared in constant time;
 * anything else is 401. For the monitoring endpoint, whose figures (Node's version, memory,
 * requests per route) are not for the public.
 */
function bearer(token: string): express.RequestHandler {
  const expected = createHash("sha256").update(`Bearer ${token}`).digest();
  return (req, res, next) => {
    const given = createHash("sha256")
      .update(req.get("authorization") ?? "")
      .digest();
    if (timingSafeEqual(given, expected)) return next();
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
    res.status(401).type("text/plain").send("Metrics are for the site's monitoring only.");
  };
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

/**
 * The build's public files (icons, images), served by `express.static`; any other address goes on
 * to the pages without a look at the disk. The list is read once: the build does not change under
 * a running process.
 */
function builtFiles(
  dir: string,
  options: Parameters<typeof express.static>[1],
): express.RequestHandler {
  const files = new Set(
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map(
        (entry) =>
          `/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")}`,
      ),
  );
  const serve = express.static(dir, options);
  return (req, res, next) => {
    if (files.has(req.path)) serve(req, res, next);
    else next();
  };
}

/** Serves `file.br` or `file.gz` from `dir` for `file` when the client takes that encoding. */
function precompressed(dir: string): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const type = CONTENT_TYPES[path.extname(req.path)];
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    if (!type || encoding === "identity") return next();
    const file = path.join(dir, path.normalize(req.path).replace(/^(\.\.[/\\])+/, ""));
    if (!file.startsWith(dir)) return next();
    const compressed = `${file}.${encoding === "br" ? "br" : "gz"}`;
    fs.stat(compressed, (error, stat) => {
      if (error || !stat.isFile()) return next();
      res.setHeader("Content-Type", type);
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", stat.size);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      if (req.method === "HEAD") return res.end();
      fs.createReadStream(compressed).pipe(res);
    });
  };
}

/**
 * A cache hit's request id and log line, the line requestLogging writes for the app's answers
 * (same fields, same masking). Not pino-http itself: on the fast path it cost a fifth of the
 * requests a second (bench:load side by side, decision 034); this makes one id and, only when
 * info lines are kept, one listener.
 */
function hitLogging(logger: Logger) {
  return (req: http.IncomingMessage, res: http.ServerResponse): string => {
    const id = randomUUID();
    if (logger.isLevelEnabled("info")) {
      const started = Date.now();
      res.once("finish", () => {
        logger.info(
          {
            req: loggedRequest({
              id,
              method: req.method,
              url: req.url,
              address: req.socket.remoteAddress,
            }),
            res: { status: res.statusCode },
            responseTime: Date.now() - started,
          },
          "request completed",
        );
      });
    }
    return id;
  };
}

/**
 * The server's request listener: a page already in the cache is answered before Express (the
 * common case, and the fast one), with its request id and log line as the app gives every other
 * answer, and counted in the metrics; everything else goes through the app. A cached page that
 * cannot be sent is logged, and the app answers if nothing was sent.
 */
export function requestListener(
  app: express.Express,
  options: { config: Config; logger: Logger; pageCache?: PageCache | null; metrics?: Metrics },
): http.RequestListener {
  const { pageCache, metrics, logger } = options;
  if (!pageCache) return app;
  const fast = cachedPageListener(pageCache, securityHeaderValues(options.config), {
    answering: hitLogging(logger),
    observe: metrics ? (path, status) => metrics.observeHit(path, status) : undefined,
  });
  return (req, res) => {
    try {
      if (fast(req, res)) return;
    } catch (error) {
      logger.error({ err: error, path: req.url?.split("?")[0] }, "a cached page could not be sent");
      if (res.headersSent) {
        if (!res.writableEnded) res.destroy();
        return;
      }
    }
    app(req, res);
  };
}
