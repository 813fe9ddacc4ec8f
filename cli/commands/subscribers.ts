import { csvFile } from "../../server/lib/csv";
import { listSubscriptions } from "../../server/newsletter/subscriptions";
import type { Command } from "../command";
import { withDatabase } from "../database";
import { formatTable, minute } from "../table";

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
      const subscribers = (await listSubscriptions(database.db)).map((s) => ({
        ...s,
        // A bounce is told apart: the address may still say it is confirmed.
        state: s.suppressed === "bounced" ? "bounced" : s.status,
      }));
      if (values.csv) {
        process.stdout.write(
          csvFile([
            ["email", "status", "subscribed_at", "confirmed_at"],
            ...subscribers.map((s) => [
              s.email,
              s.state,
              s.createdAt.toISOString(),
              s.confirmedAt?.toISOString() ?? "",
            ]),
          ]),
        );
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
