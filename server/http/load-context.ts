import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../logger";

/** What every loader and action receives as `context`. */
// A type alias, not an interface: AppLoadContext has an index signature that only aliases satisfy.
export type LoadContext = {
  config: Config;
  db: Database;
  logger: Logger;
};

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends LoadContext {}
}
