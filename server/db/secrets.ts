import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "./client";
import { siteSecrets } from "./schema";

const known = new WeakMap<Database, Map<string, Buffer>>();

/**
 * A random secret of the site's, made on first use and kept in the database, so that every web
 * process and machine on one database signs and checks alike with no setting to configure.
 */
export async function siteSecret(db: Database, name: string): Promise<Buffer> {
  let secrets = known.get(db);
  if (!secrets) known.set(db, (secrets = new Map()));
  const kept = secrets.get(name);
  if (kept) return kept;
  await db
    .insert(siteSecrets)
    .values({ name, value: randomBytes(32).toString("base64") })
    .onConflictDoNothing();
  const [row] = await db
    .select({ value: siteSecrets.value })
    .from(siteSecrets)
    .where(eq(siteSecrets.name, name));
  if (!row) throw new Error(`The site secret ${name} could not be stored`);
  const secret = Buffer.from(row.value, "base64");
  secrets.set(name, secret);
  return secret;
}
