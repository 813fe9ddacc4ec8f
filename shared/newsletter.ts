/** The spec's newsletter confirmation title (shown as a toast, or in the box without JS). */
export const SUBSCRIBED_TITLE = "Thanks for subscribing!";
/**
 * Its text. The spec's "You've been added to our newsletter list." is not true until the reader
 * confirms from the mail (double opt-in, decision 026), so the one message says what comes next.
 */
export const CONFIRM_FROM_INBOX_TEXT =
  "Please confirm from your inbox: we have sent you a link to start the newsletter.";

/** How long a confirmation link works (server/newsletter/subscriptions.ts). */
export const CONFIRM_TOKEN_HOURS = 48;
