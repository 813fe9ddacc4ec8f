import { listSubscribers } from "../../server/forms/repository";
import type { Command } from "../command";
import { withDatabase } from "../database";
import { formatTable } from "../table";

/** A CSV field, quoted when it needs to be, and never read as a formula by a spreadsheet. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const subscribersCommand: Command = {
  name: "subscribers",
  summary:
    "List the newsletter's subscribers, oldest first (--csv for a file to import elsewhere).",
  usage: "news subscribers [--csv]",
  options: {
    csv: { type: "boolean", description: "Print CSV (email,subscribed_at) instead of a table" },
  },
  async run({ values }) {
    return withDatabase("`news subscribers`", async (database) => {
      await database.migrate();
      const subscribers = await listSubscribers(database.db);
      if (values.csv) {
        process.stdout.write("email,subscribed_at\n");
        for (const s of subscribers) {
          process.stdout.write(`${csvField(s.email)},${s.createdAt.toISOString()}\n`);
        }
        return 0;
      }
      if (subscribers.length === 0) {
        console.log("No subscribers yet.");
        return 0;
      }
      console.log(
        formatTable(
          ["email", "subscribed"],
          subscribers.map((s) => [
            s.email,
            s.createdAt.toISOString().replace("T", " ").slice(0, 16),
          ]),
        ),
      );
      console.log(`\n${subscribers.length} subscriber${subscribers.length === 1 ? "" : "s"}`);
      return 0;
    });
  },
};
