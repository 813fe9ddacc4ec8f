import { data } from "react-router";
import type { Logger } from "../logger";

/**
 * Runs a page's database reads; when the database cannot be read the page answers 503 with the
 * spec's message (shown with Try Again), and the cause goes to the log, never to the reader. An
 * answer the reads chose themselves (a redirect, a 404 thrown with `data()`) goes out as it is.
 */
export async function readOr503<T>(
  logger: Logger,
  message: string,
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof Response || isAnswer(error)) throw error;
    logger.error({ err: error }, message);
    throw data(message, { status: 503 });
  }
}

/** What `data()` makes: React Router exports its class as a type only, so it is told by its tag. */
const isAnswer = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  (value as { type?: unknown }).type === "DataWithResponseInit";

/** Secondary data never takes a page down: a failing sidebar query renders empty and logs. */
export async function readOrEmpty<T>(
  logger: Logger,
  what: string,
  read: () => Promise<T[]>,
): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    logger.error({ err: error }, `${what} could not be read`);
    return [];
  }
}
