import fs from "node:fs";
import path from "node:path";
import { loadContentOrExit } from "../../server/content/load";
import { renderDigest, UNSUBSCRIBE_PLACEHOLDER } from "../../server/newsletter/digest";
import { sanDiegoDate } from "../../shared/san-diego-time";
import { unsubscribeUrl, type MailSite } from "../../server/newsletter/messages";
import { unfinishedIssue } from "../../server/newsletter/issues";
import { countAudience, runNewsletter } from "../../server/newsletter/send";
import { suppress } from "../../server/newsletter/subscriptions";
import { createMailer } from "../../server/newsletter/transport";
import { UsageError, type Command } from "../command";
import { withDatabase } from "../database";

const USAGE = [
  "news newsletter preview [--out FILE]",
  "news newsletter send [--dry-run]",
  "news newsletter suppress <address> [--bounced]",
].join("\n       ");

/**
 * The newsletter from the command line: see the next digest, send it now (or resume one that was
 * interrupted), and put an address on the suppression list (an unsubscribe request that came by
 * mail, a bounce reported later).
 */
export const newsletterCommand: Command = {
  name: "newsletter",
  summary:
    "Preview the next digest (preview), send it now or resume an interrupted one (send), or stop mailing an address (suppress).",
  usage: USAGE,
  allowPositionals: true,
  options: {
    out: {
      type: "string",
      description: "preview: the HTML file to write (the text part goes beside it as .txt)",
    },
    "dry-run": {
      type: "boolean",
      description: "send: say what would be sent, and to how many readers, without sending",
    },
    bounced: {
      type: "boolean",
      description: "suppress: the address bounced (otherwise: it asked to unsubscribe)",
    },
  },
  async run({ values, positionals }) {
    const [action, address, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra[0]}`);
    return withDatabase(`\`news newsletter ${action ?? ""}\``, async (database, config) => {
      const content = loadContentOrExit(config.contentDir);
      const site: MailSite = {
        siteName: content.site.name,
        siteUrl: config.siteUrl,
        from: config.newsletter.from,
      };
      const now = new Date();
      switch (action) {
        case "preview": {
          const digest = await renderDigest(database.db, site, now);
          if (!digest) {
            console.log("There is no story to send: run `news ingest` first.");
            return 1;
          }
          const sample = unsubscribeUrl(site, "preview");
          const file = path.resolve(
            typeof values.out === "string" ? values.out : "newsletter-preview.html",
          );
          const textFile = file.replace(/\.html?$/i, "") + ".txt";
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, digest.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, sample));
          fs.writeFileSync(textFile, digest.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, sample));
          console.log(`Subject: ${digest.subject}`);
          console.log(`${digest.stories} stories; HTML in ${file}, plain text in ${textFile}`);
          return 0;
        }
        case "send": {
          if (values["dry-run"]) {
            const unfinished = await unfinishedIssue(database.db);
            const digest = unfinished ? null : await renderDigest(database.db, site, now);
            const readers = await countAudience(database.db);
            if (unfinished) {
              console.log(`Would resume issue ${unfinished.id} (${unfinished.subject}).`);
            } else if (digest) {
              console.log(`Would send "${digest.subject}" (${digest.stories} stories)`);
              console.log(`to ${readers} confirmed reader${readers === 1 ? "" : "s"}.`);
            } else console.log("Nothing to send: there is no story.");
            console.log("Nothing was sent (--dry-run).");
            return 0;
          }
          const mailer = createMailer(config.newsletter);
          try {
            const run = await runNewsletter(database, {
              mailer,
              site,
              keepIssuesDays: config.newsletter.keepIssuesDays,
              key: `manual-${sanDiegoDate(now)}-${now.getTime()}`,
            });
            if (run.kind === "busy") {
              console.error("Another process is sending the newsletter now: nothing was sent.");
              return 1;
            }
            if (run.kind === "nothing") {
              console.log(`Nothing sent: ${run.reason}.`);
              return 0;
            }
            const s = run.summary;
            console.log(
              `${run.resumed ? "Resumed" : "Sent"} issue ${s.issueId} to ${mailer.destination}: ` +
                `${s.sent} sent, ${s.bounced} bounced, ${s.failed} failed, ${s.skipped} skipped` +
                `${s.retried > 0 ? `, ${s.retried} begun by an interrupted run and sent now` : ""}` +
                `${s.remaining > 0 ? `; ${s.remaining} left for the next run` : ""}.`,
            );
            return s.remaining > 0 ? 1 : 0;
          } finally {
            mailer.close();
          }
        }
        case "suppress": {
          if (!address || !address.includes("@")) {
            throw new UsageError("Give the address to stop mailing.");
          }
          await suppress(database.db, address, values.bounced ? "bounced" : "unsubscribed");
          console.log(`${address.trim().toLowerCase()} will not be mailed again.`);
          return 0;
        }
        default:
          throw new UsageError(action ? `Unknown action: ${action}` : "Say what to do.");
      }
    });
  },
};
