import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  newsletterDeliveries,
  newsletterIssues,
  newsletterSubscribers,
  newsletterSuppressions,
} from "../db/schema";
import { reportSkippedPostgres, testDatabases } from "../db/test-databases";
import { addLatecomers } from "./issues";
import { suppress, unsubscribe, unsubscribeToken } from "./subscriptions";

reportSkippedPostgres();

/** Unsubscribing and queueing an issue's deliveries, on every database the site runs on. */
describe.each(testDatabases())("subscriptions and deliveries on $name", (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;

  beforeAll(async () => {
    handle = await database.open();
    await handle.migrate();
  }, 60_000);
  afterAll(() => handle?.dispose());

  beforeEach(async () => {
    const tables = [newsletterDeliveries, newsletterIssues, newsletterSuppressions];
    for (const table of [...tables, newsletterSubscribers]) await handle.db.delete(table);
  });

  const reader = async (email: string, status = "confirmed") => {
    const [row] = await handle.db
      .insert(newsletterSubscribers)
      .values({
        email,
        status,
        confirmTokenHash: `hash of ${email}`,
        confirmExpiresAt: new Date("2030-01-01T00:00:00Z"),
      })
      .returning();
    if (!row) throw new Error("no subscriber");
    return row;
  };
  const row = async (id: number) => {
    const [found] = await handle.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.id, id));
    return found;
  };

  it("keeps the first unsubscribe's time and ends any pending confirmation", async () => {
    const ann = await reader("ann@example.org");
    const token = await unsubscribeToken(handle.db, ann.publicId);
    const first = new Date("2026-03-01T10:00:00Z");
    expect(await unsubscribe(handle.db, token, first)).toEqual({ unsubscribed: true });
    expect(await unsubscribe(handle.db, token, new Date("2026-03-02T10:00:00Z"))).toEqual({
      unsubscribed: true,
    });
    expect(await row(ann.id)).toMatchObject({
      status: "unsubscribed",
      unsubscribedAt: first,
      confirmTokenHash: null,
      confirmExpiresAt: null,
    });
    expect(await unsubscribe(handle.db, "not.a-token", first)).toEqual({ unsubscribed: false });
  });

  it("unsubscribes a suppressed reader now, or keeps an earlier time", async () => {
    const bea = await reader("bea@example.org");
    await suppress(handle.db, " BEA@example.org ", "unsubscribed");
    const after = await row(bea.id);
    expect(after).toMatchObject({ status: "unsubscribed", confirmTokenHash: null });
    expect(after?.unsubscribedAt).toBeInstanceOf(Date);
    const cal = await reader("cal@example.org");
    const token = await unsubscribeToken(handle.db, cal.publicId);
    const first = new Date("2026-03-01T10:00:00Z");
    await unsubscribe(handle.db, token, first);
    await suppress(handle.db, "cal@example.org", "unsubscribed");
    expect((await row(cal.id))?.unsubscribedAt).toEqual(first);
    // A bounce suppresses without unsubscribing.
    const dee = await reader("dee@example.org");
    await suppress(handle.db, "dee@example.org", "bounced", "550");
    expect(await row(dee.id)).toMatchObject({ status: "confirmed", unsubscribedAt: null });
  });

  it("gives an issue to confirmed, unsuppressed readers who have none of it", async () => {
    const had = await reader("had@example.org");
    const late = await reader("late@example.org");
    await reader("pending@example.org", "pending");
    await reader("gone@example.org");
    await suppress(handle.db, "gone@example.org", "bounced");
    const [issue] = await handle.db
      .insert(newsletterIssues)
      .values({ key: "2026-03-01", subject: "s", html: "h", text: "t", completedAt: new Date() })
      .returning();
    if (!issue) throw new Error("no issue");
    await handle.db
      .insert(newsletterDeliveries)
      .values({ issueId: issue.id, subscriberId: had.id, status: "sent" });
    const reopened = await addLatecomers(handle.db, "2026-03-01");
    expect(reopened).toMatchObject({ id: issue.id, completedAt: null });
    const deliveries = await handle.db
      .select({
        subscriberId: newsletterDeliveries.subscriberId,
        status: newsletterDeliveries.status,
      })
      .from(newsletterDeliveries)
      .orderBy(newsletterDeliveries.subscriberId);
    expect(deliveries).toEqual([
      { subscriberId: had.id, status: "sent" },
      { subscriberId: late.id, status: "queued" },
    ]);
    expect(await addLatecomers(handle.db, "2026-03-01")).toBeNull();
    expect(await addLatecomers(handle.db, "2026-03-02")).toBeNull();
  });
});
