import type { Command } from "../command";
import { withDatabase } from "../database";

export const migrate: Command = {
  name: "migrate",
  summary: "Apply pending database migrations (the site also does this at start).",
  usage: "news migrate",
  options: {},
  async run() {
    await withDatabase("`news migrate`", async (_database, config) => {
      const where = config.database.kind === "pglite" ? config.database.dataDir : "PostgreSQL";
      console.log(`Migrations applied (${where}).`);
    });
    return 0;
  },
};
