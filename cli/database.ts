import { loadConfigOrExit, type Config } from "../server/config";
import { openDatabase, type DatabaseHandle } from "../server/db/client";
import { DataDirInUseError } from "../server/db/lock";

/** Opens the configured database for a command, or explains why it cannot (exit code 1). */
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
  try {
    return await work(handle, config);
  } finally {
    await handle.close();
  }
}
