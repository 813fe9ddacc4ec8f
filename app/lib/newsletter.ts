/** The spec's newsletter confirmation, word for word (shown as a toast, or in the box without JS). */
export const SUBSCRIBED_TITLE = "Thanks for subscribing!";
export const SUBSCRIBED_TEXT = "You've been added to our newsletter list.";
