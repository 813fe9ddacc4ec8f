/** The spec's newsletter confirmation, word for word (shown as a toast, or in the box without JS). */
export const SUBSCRIBED_TITLE = "Thanks for subscribing!";
export const SUBSCRIBED_TEXT = "You've been added to our newsletter list.";
/** The line the newsletter adds to the spec's confirmation: the address is pending until confirmed. */
export const CONFIRM_FROM_INBOX_TEXT =
  "Please confirm from your inbox: we have sent you a link to start the newsletter.";

/** How long a confirmation link works (server/mail/subscriptions.ts). */
export const CONFIRM_TOKEN_HOURS = 48;
