import pg from "pg";

/**
 * One statement on a PostgreSQL server over a connection of its own, closed after it: for creating,
 * dropping and fencing off whole databases (tests, benchmarks), where a pool would hold on to them.
 */
export async function adminQuery(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}
