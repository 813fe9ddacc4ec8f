import { BlogSourceError } from "./source";

/**
 * What a blog page shows after "Error loading blog(s): ". A source's own failures carry the spec's
 * messages; anything else is a defect whose message may carry internals, so readers get the
 * spec's message for a failure that is not an error object, and the log gets the rest.
 */
export function blogErrorMessage(error: unknown): string {
  return BlogSourceError.is(error) ? error.message : "An error occurred";
}
