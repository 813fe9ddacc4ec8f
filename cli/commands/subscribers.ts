import { listSubscribers } from "../../server/forms/repository";
import type { Command } from "../command";
import { withDatabase } from "../database";
import { formatTable } from "../table";

/**
 * A CSV field, in double quotes when it holds a quote, comma or line break, or begins as a formula
 * would (= + - @). The value itself is never changed: the file is for mailing tools, and an
 * address with a ' put before it would be another address. Signup accepts only letters, digits and
 * _ ' + - . before the @ (server/forms/newsletter.ts), so no stored address can spell a function
 * call even where a spreadsheet reads a leading + or - as arithmetic.
 */
export function csvField(value: string): string {
  return /^[=+\-@\t\r]|[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
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
