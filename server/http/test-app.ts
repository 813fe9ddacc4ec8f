import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import type { Logger } from "../logger";
import { siteBlog } from "../blog/create-source";
import { parseConfig, type Config } from "../config";
import { loadContent } from "../content/load";
import type { DatabaseHandle } from "../db/client";
import { formLimiter } from "../forms/guard";
import { loadFeedSources } from "../ingest/feeds-config";
import { newsletterMailFor } from "../newsletter/signup";
import { newsroomOperations, type NewsroomOperations } from "../newsroom/operations";
import { readCacheFor, type ReadCache } from "../news/read-cache";
import { countArticles } from "../news/repository";
import { createApp, requestListener } from "./app";
import { keepConnectionsAlive } from "./keep-alive";
import { createMetrics, type Metrics } from "./metrics";
import { pageCacheFor, type PageCache } from "./page-cache";
import { ensureBuilt } from "./test-build";
import type { PictureMaker } from "../images/picture-maker";
import type { PictureStore } from "../images/store";
import { pictureStoreFor } from "../images/store-for";

/**
 * The production build behind our Express app, listening on a free port of 127.0.0.1, over the
 * given database, with the page cache and metrics as configured by `env`: for tests that speak HTTP
 * to the real thing. Builds first when there is no build.
 */
export async function startTestApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  logger: Logger = pino({ level: "silent" }),
  /** Makes the pictures' copies and reads uploads: sharp in this process when absent. */
  pictureMaker?: PictureMaker,
): Promise<{
  base: string;
  config: Config;
  pageCache: PageCache | null;
  readCache: ReadCache | null;
  metrics: Metrics;
  /** The newsroom's jobs, to wait for the ones a test started. */
  operations: NewsroomOperations;
  /** Where the site keeps pictures: a folder of the test's own unless `env` names one or a bucket. */
  pictures: PictureStore;
  close(): Promise<void>;
}> {
  ensureBuilt();
  // Mail goes to a folder of the test's own unless the test names an SMTP server or a folder.
  const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "news-test-outbox-"));
  const config = parseConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    MAIL_OUTBOX_DIR: outbox,
    PICTURES_DIR: path.join(outbox, "pictures"),
    ...env,
  });
  const pictures = pictureStoreFor(config.pictures);
  const readCache = await readCacheFor(config, database);
  const metrics = createMetrics(() => countArticles(database.db), readCache);
  const pageCache = await pageCacheFor(config, database);
  const content = loadContent(config.contentDir);
  const mail = newsletterMailFor(config, content.site.name);
  // As the web process has it.
  const blog = siteBlog(database.db, config, logger);
  const operations = newsroomOperations({
    database,
    logger,
    pass: {
      siteUrl: config.siteUrl,
      siteName: content.site.name,
      sources: loadFeedSources(config.feedsFile),
      concurrency: config.ingestConcurrency,
    },
    mail,
  });
  const app = await createApp(
    {
      config,
      db: database.db,
      announceChange: (keys) => database.announceChange(keys),
      logger,
      blog,
      content,
      formLimiter: formLimiter(config.formRateLimit),
      mail,
      operations,
    },
    { pageCache, metrics, pictures, pictureMaker },
  );
  const server = http.createServer(requestListener(app, { config, logger, pageCache, metrics }));
  // As the web process keeps them. The tests' fetch and this server share one event loop, which a
  // test may block for seconds (opening an embedded database, making copies of pictures): with
  // Node's 5 s idle timeout the server could close a kept-alive socket just as fetch reused it
  // (ECONNRESET).
  keepConnectionsAlive(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    pictures,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    config,
    pageCache,
    readCache,
    metrics,
    operations,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The tests are done: connections kept alive (65 s) or holding a body the site refused
        // to read would otherwise keep the server open past the test's hook timeout.
        server.closeAllConnections();
      }).finally(async () => {
        await operations.idle();
        mail.mailer.close();
        fs.rmSync(outbox, { recursive: true, force: true });
      }),
  };
}
