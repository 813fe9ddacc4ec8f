import { listContactMessages } from "../../server/forms/repository";
import type { Command } from "../command";
import { withDatabase } from "../database";
import { minute } from "../table";

const SHOWN = 50;

/** A message as the operator reads it: when, who, what about, why it looks automated, the text. */
function messageBlock(
  message: Awaited<ReturnType<typeof listContactMessages>>["messages"][number],
) {
  const when = minute(message.createdAt);
  const about = message.category ? ` · ${message.category}` : "";
  const doubt = message.spamReason ? `\nsuspected spam: ${message.spamReason}` : "";
  // Control characters other than line breaks were dropped when the message was stored.
  return `#${message.id} ${when} · ${message.name} <${message.email}>${about}${doubt}\n${message.message}\n`;
}

export const messagesCommand: Command = {
  name: "messages",
  summary:
    "Show the newest contact messages from readers (--spam: those kept as suspected spam, with why).",
  usage: "news messages [--spam]",
  options: {
    spam: { type: "boolean", description: "Show the messages kept as suspected spam instead" },
  },
  async run({ values }) {
    return withDatabase("`news messages`", async (database) => {
      const spam = values.spam === true;
      const { messages, others } = await listContactMessages(database.db, { spam, limit: SHOWN });
      if (messages.length === 0) console.log(spam ? "No suspected spam." : "No messages yet.");
      for (const message of messages) console.log(messageBlock(message));
      if (others > 0) {
        console.log(
          spam
            ? `${others} message${others === 1 ? "" : "s"} from readers: news messages`
            : `${others} more kept as suspected spam: news messages --spam`,
        );
      }
      return 0;
    });
  },
};
