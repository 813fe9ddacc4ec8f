import { newsletterSubscribers } from "../db/schema";
import type { Database } from "../db/client";
import { normaliseEmail } from "../forms/repository";

/**
 * A confirmed subscriber stored directly, for tests: readers subscribe through the confirmation
 * e-mail (server/newsletter/subscriptions.ts). Storing the address again is not an error.
 */
export async function addSubscriber(db: Database, email: string): Promise<{ created: boolean }> {
  const rows = await db
    .insert(newsletterSubscribers)
    .values({ email: normaliseEmail(email) })
    .onConflictDoNothing({ target: newsletterSubscribers.email })
    .returning({ id: newsletterSubscribers.id });
  return { created: rows.length > 0 };
}

/** Every stored address, oldest first. */
export async function listSubscribers(db: Database) {
  return db
    .select({ email: newsletterSubscribers.email, createdAt: newsletterSubscribers.createdAt })
    .from(newsletterSubscribers)
    .orderBy(newsletterSubscribers.createdAt, newsletterSubscribers.id);
}
