import http, { type Server } from "node:http";
import { siteBlog } from "../blog/create-source";
import { refreshBlogIndex } from "../blog/search-index";
import type { Config } from "../config";
import type { Content } from "../content/load";
import { openDatabase, type DatabaseHandle } from "../db/client";
import { DataDirInUseError } from "../db/lock";
import { orExit } from "../exit";
import { formLimiter } from "../forms/guard";
import { FeedsConfigError, loadFeedSources } from "../ingest/feeds-config";
import { databaseRateLimits, memoryRateLimits } from "../lib/rate-limit";
import { childPictureMaker } from "../images/picture-maker";
import { pictureStoreFor } from "../images/store-for";
import { startScheduler, type Scheduler } from "../ingest/scheduler";
import { createLogger } from "../logger";
import { startNewsletterSchedule } from "../newsletter/schedule";
import { startPublishSchedule } from "../newsroom/publish-schedule";
import { newsletterMailFor } from "../newsletter/signup";
import { readCacheFor } from "../news/read-cache";
import { newsroomOperations } from "../newsroom/operations";
import { countArticles } from "../news/repository";
import { purgerFor } from "../cache/configured";
import { withPurger } from "../cache/changes";
import { createApp, requestListener } from "./app";
import { holdsSchedule, metricsForProcess } from "./cluster";
import { keepConnectionsAlive } from "./keep-alive";
import { createMetrics } from "./metrics";
import { pageCacheFor } from "./page-cache";

/** How long in-flight requests may take to finish before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How long queued purges may take to be sent at shutdown. */
const PURGE_GRACE_MS = 5_000;

export async function startWebServer(config: Config, content: Content): Promise<void> {
  const logger = createLogger(config.logLevel);

  const sources = orExit(() => loadFeedSources(config.feedsFile), FeedsConfigError);

  let database: DatabaseHandle;
  try {
    database = await openDatabase(config.database, { owner: "the web server" });
    await database.migrate();
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      logger.fatal(error.message);
      process.exit(1);
    }
    throw error;
  }

  const blog = siteBlog(database.db, config, logger);
  // Any process's ingest pass that stores new or changed articles empties both caches.
  const readCache = await readCacheFor(config, database);
  const pageCache = await pageCacheFor(config, database);
  const pictureStore = pictureStoreFor(config.pictures);
  // sharp works in a child process: its memory is given back when idle, and a picture that
  // crashes libvips stops the child, not the site (decision 022).
  const pictureMaker = childPictureMaker({
    onChildStopped: (reason) => logger.warn({ reason }, "picture maker stopped"),
  });
  const metrics = metricsForProcess(createMetrics(() => countArticles(database.db), readCache));
  // Every announced change purges what it touched from the cache in front (PURGER, decision 009).
  const purger = purgerFor(config.purge, {
    logger,
    observe: (provider, outcome, keys) => metrics.observePurge(provider, outcome, keys),
  });
  database = withPurger(database, purger);
  const mail = newsletterMailFor(config, content.site.name);
  // What an ingest pass needs, the schedule's and the one an admin starts in the newsroom.
  const passOptions = {
    siteUrl: config.siteUrl,
    siteName: content.site.name,
    sources,
    concurrency: config.ingestConcurrency,
    pictures: {
      store: pictureStore,
      maker: pictureMaker,
      allowPrivateAddresses: config.pictures.allowPrivateAddresses,
    },
    afterPass: () => refreshBlogIndex(database.db, blog, logger),
  };
  const operations = newsroomOperations({
    database,
    logger,
    pass: passOptions,
    mail,
    onPass: (summary) => metrics.observePass(summary),
  });
  const app = await createApp(
    {
      config,
      db: database.db,
      announceChange: (keys) => database.announceChange(keys),
      logger,
      blog,
      content,
      // On PostgreSQL other processes or machines may answer too: they count in the database.
      formLimiter: formLimiter(
        config.formRateLimit,
        database.kind === "postgres"
          ? databaseRateLimits(database.db, { orInMemory: true, logger })
          : memoryRateLimits(),
      ),
      mail,
      operations,
    },
    { pageCache, metrics, pictures: pictureStore, pictureMaker },
  );
  const server: Server = http.createServer(
    requestListener(app, { config, logger, pageCache, metrics }),
  );
  keepConnectionsAlive(server);
  server.listen(config.port, config.host, () => {
    logger.info({ url: `http://${config.host}:${config.port}`, db: database.kind }, "listening");
  });

  // Behind a supervisor only the first web process keeps the schedule (and copies the blog).
  const keepsSchedule = holdsSchedule();
  const scheduler: Scheduler | undefined =
    keepsSchedule && config.ingestIntervalMinutes > 0
      ? startScheduler({
          ...passOptions,
          database,
          logger,
          intervalMinutes: config.ingestIntervalMinutes,
          onPass: (summary) => metrics.observePass(summary),
        })
      : undefined;
  // Without a schedule the blog is still copied for search once, at start.
  if (keepsSchedule && !scheduler) void refreshBlogIndex(database.db, blog, logger);
  // The digest: the newsletter lock lets one process of all those on the database send it.
  const newsletter =
    keepsSchedule && config.newsletter.sendAt
      ? startNewsletterSchedule({ database, mail, sendAt: config.newsletter.sendAt, logger })
      : undefined;
  // Scheduled stories and posts: each due one is taken by one process of all on the database.
  const publishing = keepsSchedule
    ? startPublishSchedule({ database, siteUrl: config.siteUrl, logger })
    : undefined;
  if (!config.newsletter.smtpUrl) {
    logger.info(
      { outbox: config.newsletter.outboxDir },
      "newsletter mail is written to the outbox folder (no SMTP_URL)",
    );
  }

  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // The scheduler stops between feeds while the server stops taking connections and lets the
    // requests under way finish (for at most SHUTDOWN_GRACE_MS).
    // An ingest pass or a digest an admin started finishes too (each stops if its lock is lost).
    const schedulerStopped = Promise.all([
      scheduler?.stop(),
      newsletter?.stop(),
      publishing?.stop(),
      operations.stop(),
    ]);
    const timer = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    // Keep-alive connections left idle by a finished request are closed as soon as they are idle.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    clearTimeout(timer);
    clearInterval(sweep);
    await schedulerStopped;
    // The last changes' purges go out before the process does; one still failing after a few
    // seconds of retries is given up with it (decision 009).
    await Promise.race([
      purger.idle(),
      new Promise((resolve) => setTimeout(resolve, PURGE_GRACE_MS).unref()),
    ]);
    // Closing PGlite flushes it: everything the site wrote is on disk when the process ends.
    mail.mailer.close();
    await pictureMaker.close();
    await database.close();
    logger.info("stopped");
    process.exit(0);
  }

  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
