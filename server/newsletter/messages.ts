import { randomBytes } from "node:crypto";
import addressparser from "nodemailer/lib/addressparser";
import { CONFIRM_TOKEN_HOURS, type ConfirmationToSend } from "./subscriptions";
import { confirmationHtml, confirmationText } from "./templates";
import type { OutgoingMail } from "./transport";

/** What every newsletter mail needs to know of the site. */
export interface MailSite {
  siteName: string;
  /** The public origin (SITE_URL): every link and picture in a mail is absolute on it. */
  siteUrl: string;
  /** The From of every mail (NEWSLETTER_FROM). */
  from: string;
}

const confirmUrl = (site: MailSite, token: string) =>
  `${site.siteUrl}/newsletter/confirm?token=${encodeURIComponent(token)}`;

export const unsubscribeUrl = (site: MailSite, token: string) =>
  `${site.siteUrl}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;

/** The bare address of NEWSLETTER_FROM, which also takes unsubscribe requests by mail. */
function fromAddress(site: MailSite): string {
  const [first] = addressparser(site.from, { flatten: true });
  return first?.address ?? site.from;
}

/** A Message-ID on the site's own host. */
export function messageId(site: MailSite, local: string): string {
  return `<${local}@${new URL(site.siteUrl).hostname}>`;
}

/**
 * The headers that let mail programs offer unsubscribing (RFC 2369) in one click (RFC 8058): a
 * POST to the https address unsubscribes with no page and no cookie.
 */
export function unsubscribeHeaders(site: MailSite, token: string): Record<string, string> {
  const mailto = `mailto:${fromAddress(site)}?subject=${encodeURIComponent(`unsubscribe ${token}`)}`;
  return {
    "List-Unsubscribe": `<${unsubscribeUrl(site, token)}>, <${mailto}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** The mail that asks a new reader to confirm: the address is subscribed only once they do. */
export function confirmationMail(
  site: MailSite,
  confirmation: ConfirmationToSend,
  unsubscribeToken: string,
): OutgoingMail {
  const fields = {
    siteName: site.siteName,
    siteUrl: site.siteUrl,
    confirmUrl: confirmUrl(site, confirmation.token),
    unsubscribeUrl: unsubscribeUrl(site, unsubscribeToken),
    hours: CONFIRM_TOKEN_HOURS,
  };
  return {
    from: site.from,
    to: confirmation.email,
    subject: `Confirm your subscription to ${site.siteName}`,
    messageId: messageId(site, `confirm.${randomBytes(12).toString("hex")}`),
    text: confirmationText(fields),
    html: confirmationHtml(fields),
    headers: unsubscribeHeaders(site, unsubscribeToken),
  };
}
