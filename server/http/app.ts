import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import type { AppServices } from "./load-context";

const BUILD_DIR = path.resolve("build");

/**
 * The Express app around React Router: compression, static files, then every page.
 * In development Vite serves the modules and reloads them; in production the built bundle runs.
 */
export async function createApp(services: AppServices): Promise<express.Express> {
  const app = express();
  app.disable("x-powered-by");
  // Behind a reverse proxy its X-Forwarded-For names the client; only as many hops as configured.
  app.set("trust proxy", services.config.trustProxyHops);
  app.use(compression());

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (services.config.nodeEnv === "production") {
    // Fingerprinted assets never change under the same name.
    app.use(
      "/assets",
      express.static(path.join(BUILD_DIR, "client/assets"), { immutable: true, maxAge: "1y" }),
    );
    app.use(express.static(path.join(BUILD_DIR, "client"), { maxAge: "1h" }));
    build = (await import(path.join(BUILD_DIR, "server/index.js"))) as ServerBuild;
  } else {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true } });
    app.use(devServer.middlewares);
    build = () =>
      devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  }

  app.use(
    createRequestHandler({
      build,
      getLoadContext: (req) => ({ ...services, clientAddress: req.ip ?? "unknown" }),
    }),
  );
  return app;
}
