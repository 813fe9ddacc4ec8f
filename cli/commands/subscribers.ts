import { listSubscriptions } from "../../server/mail/subscriptions";
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

const minute = (date: Date | null) =>
  date ? date.toISOString().replace("T", " ").slice(0, 16) : "";

export const subscribersCommand: Command = {
  name: "subscribers",
  summary:
    "List the newsletter's subscribers, oldest first, with their state: pending (not confirmed yet), confirmed, unsubscribed or bounced (--csv for a file to import elsewhere).",
  usage: "news subscribers [--csv]",
  options: {
    csv: {
      type: "boolean",
      description: "Print CSV (email,status,subscribed_at,confirmed_at) instead of a table",
    },
  },
  async run({ values }) {
    return withDatabase("`news subscribers`", async (database) => {
      await database.migrate();
      const subscribers = (await listSubscriptions(database.db)).map((s) => ({
        ...s,
        // A bounce is told apart: the address may still say it is confirmed.
        state: s.suppressed === "bounced" ? "bounced" : s.status,
      }));
      if (values.csv) {
        process.stdout.write("email,status,subscribed_at,confirmed_at\n");
        for (const s of subscribers) {
          process.stdout.write(
            `${csvField(s.email)},${s.state},${s.createdAt.toISOString()},${s.confirmedAt?.toISOString() ?? ""}\n`,
          );
        }
        return 0;
      }
      if (subscribers.length === 0) {
        console.log("No subscribers yet.");
        return 0;
      }
      console.log(
        formatTable(
          ["email", "status", "signed up", "confirmed", "left"],
          subscribers.map((s) => [
            s.email,
            s.state,
            minute(s.createdAt),
            minute(s.confirmedAt),
            minute(s.unsubscribedAt),
          ]),
        ),
      );
      const counts = new Map<string, number>();
      for (const s of subscribers) counts.set(s.state, (counts.get(s.state) ?? 0) + 1);
      const parts = ["confirmed", "pending", "unsubscribed", "bounced"]
        .filter((state) => counts.has(state))
        .map((state) => `${counts.get(state)} ${state}`);
      console.log(
        `\n${subscribers.length} subscriber${subscribers.length === 1 ? "" : "s"}: ${parts.join(", ")}`,
      );
      return 0;
    });
  },
};
