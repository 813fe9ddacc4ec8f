import type { BlogSource } from "../blog/source";
import type { Config } from "../config";
import type { Content } from "../content/load";
import type { Database } from "../db/client";
import type { FormLimiter } from "../forms/guard";
import type { PictureMaker } from "../images/picture-maker";
import type { PictureStore } from "../images/store";
import type { Logger } from "../logger";
import type { NewsletterMail } from "../newsletter/signup";
import type { NewsroomOperations } from "../newsroom/operations";

/** What every loader and action receives as `context`. */
// A type alias, not an interface: AppLoadContext has an index signature that only aliases satisfy.
export type LoadContext = {
  config: Config;
  db: Database;
  /**
   * Tells every process on the database that stories changed, so page and read caches drop at once,
   * and purges `keys` (what the change touched) from the caches in front of the site
   * (DatabaseHandle.announceChange): for the newsroom's actions.
   */
  announceChange(keys?: readonly string[]): Promise<void>;
  logger: Logger;
  blog: BlogSource;
  /** The editorial content, read once at start (server/content). */
  content: Content;
  /** Counts form submissions per address (shared by every request, of every web process). */
  formLimiter: FormLimiter;
  /** Where newsletter mail goes (SMTP or the outbox) and what it says of the site (server/newsletter). */
  mail: NewsletterMail;
  /** The admins' long jobs: an ingest pass and today's digest, started from the newsroom. */
  operations: NewsroomOperations;
  /** Where pictures are kept: the newsroom's uploads go in beside feed pictures. */
  pictures: PictureStore;
  /**
   * Reads and cleans the newsroom's uploads as it makes the pictures' copies: in the web process,
   * its child process (decision 022), so a 40-megapixel photo is decoded outside the site's memory.
   */
  pictureMaker: PictureMaker;
  /** The requesting client's address, for rate limits only; never logged or stored. */
  clientAddress: string;
  /** This request's id: in its log lines, its X-Request-Id header and on its error page. */
  requestId: string;
  /**
   * This render's Content-Security-Policy nonce, which app/entry.server.tsx hands React and React
   * Router for the inline scripts they write (the page handler makes one per render). Without it,
   * as in tests that render with no policy, scripts carry none.
   */
  cspNonce?: string;
};

/**
 * What the server sets up once; the client address and request id are added per request, and the
 * picture store and maker by the app (createApp's `pictures` and `pictureMaker` options).
 */
export type AppServices = Omit<
  LoadContext,
  "clientAddress" | "requestId" | "pictures" | "pictureMaker"
>;

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends LoadContext {}
}
