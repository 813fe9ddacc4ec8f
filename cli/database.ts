import { loadConfigOrExit, type Config } from "../server/config";
import { openDatabase, type DatabaseHandle } from "../server/db/client";
import { DataDirInUseError } from "../server/db/lock";
import { withPurger } from "../server/cache/changes";
import { purgerFor } from "../server/cache/configured";
import { createLogger } from "../server/logger";

/** Opens and migrates the configured database for a command, or says why not (exit code 1). */
export async function withDatabase<T>(
  owner: string,
  work: (handle: DatabaseHandle, config: Config) => Promise<T>,
): Promise<T> {
  const config = loadConfigOrExit();
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase(config.database, { owner });
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // What a command changes is purged from the cache in front as the site's own changes are
  // (PURGER, decision 009); the command ends once those purges are sent or given up.
  const purger = purgerFor(config.purge, { logger: createLogger(config.logLevel) });
  try {
    await handle.migrate();
    return await work(withPurger(handle, purger), config);
  } finally {
    await purger.idle();
    await handle.close();
  }
}
