/**
 * Text staff typed, as stored: runs of white space and control characters as one space, trimmed.
 * A control character is never meant (it comes from a paste or a hand-made request), and
 * PostgreSQL refuses NUL in text: it would fail the action instead of being ignored.
 */
export const tidy = (text: string): string => text.replace(/[\s\p{Cc}]+/gu, " ").trim();

/** Whether `text` holds a control character: no stored id or key does, so nothing can match it. */
export const hasControl = (text: string): boolean => /\p{Cc}/u.test(text);
