import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { rowsOf } from "./client";
import { testDatabases } from "./test-databases";
import { embeddedUpkeep } from "./upkeep";

const pglite = testDatabases().find((d) => d.name === "pglite");

describe.skipIf(!pglite)("upkeep of the embedded database", () => {
  let handle: Awaited<ReturnType<NonNullable<typeof pglite>["open"]>>;
  /** What the planner knows of `articles`: pages all visible, and rows (set by VACUUM and ANALYZE). */
  const known = async () => {
    const [row] = rowsOf<{ visible: number; rows: number }>(
      await handle.db.execute(
        sql`SELECT relallvisible AS visible, reltuples AS rows FROM pg_class WHERE relname = 'articles'`,
      ),
    );
    return { visible: Number(row?.visible ?? 0), rows: Number(row?.rows ?? 0) };
  };
  const insert = (from: number, to: number) =>
    handle.db.execute(sql`
      INSERT INTO articles (id, category, link, title, excerpt, content, author, published_at)
      SELECT 'u' || n, 'politics', 'https://sample.example.org/u' || n, 'Story ' || n, '', '',
             'Staff Writer', now() FROM generate_series(${from}::int, ${to}::int) AS n`);

  beforeAll(async () => {
    handle = await (pglite as NonNullable<typeof pglite>).open();
    await handle.migrate();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  it("vacuums and analyses once per interval", async () => {
    let clock = 0;
    const upkeep = embeddedUpkeep(handle, createLogger("silent"), {
      intervalMs: 1000,
      now: () => clock,
    });
    await insert(1, 2000);
    expect((await known()).visible).toBe(0);
    await upkeep();
    expect(await known()).toMatchObject({ rows: 2000 });
    expect((await known()).visible).toBeGreaterThan(0);
    await insert(2001, 4000);
    clock = 999;
    await upkeep();
    expect(await known()).toMatchObject({ rows: 2000 });
    clock = 1000;
    await upkeep();
    expect(await known()).toMatchObject({ rows: 4000 });
  });
});
