CREATE TABLE "sitemap_months" (
	"month" text PRIMARY KEY NOT NULL,
	"articles" integer NOT NULL
);
--> statement-breakpoint
-- Kept per statement from its transition tables, as archive_counts is (migration 0016): one small
-- upsert per write; an update that takes no story on or off the site writes nothing.
CREATE FUNCTION sitemap_months_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO sitemap_months (month, articles)
    SELECT to_char(first_seen_at AT TIME ZONE 'UTC', 'YYYY-MM'), count(*)
      FROM new_rows WHERE taken_down_at IS NULL GROUP BY 1
    ON CONFLICT (month) DO UPDATE SET articles = sitemap_months.articles + excluded.articles;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO sitemap_months (month, articles)
    SELECT to_char(first_seen_at AT TIME ZONE 'UTC', 'YYYY-MM'), -count(*)
      FROM old_rows WHERE taken_down_at IS NULL GROUP BY 1
    ON CONFLICT (month) DO UPDATE SET articles = sitemap_months.articles + excluded.articles;
  ELSE
    INSERT INTO sitemap_months (month, articles)
    SELECT month, sum(change) FROM (
      SELECT to_char(first_seen_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, 1 AS change
        FROM new_rows WHERE taken_down_at IS NULL
      UNION ALL
      SELECT to_char(first_seen_at AT TIME ZONE 'UTC', 'YYYY-MM'), -1
        FROM old_rows WHERE taken_down_at IS NULL
    ) changes GROUP BY month HAVING sum(change) <> 0
    ON CONFLICT (month) DO UPDATE SET articles = sitemap_months.articles + excluded.articles;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER sitemap_months_insert AFTER INSERT ON articles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sitemap_months_apply();--> statement-breakpoint
CREATE TRIGGER sitemap_months_update AFTER UPDATE ON articles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sitemap_months_apply();--> statement-breakpoint
CREATE TRIGGER sitemap_months_delete AFTER DELETE ON articles
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sitemap_months_apply();--> statement-breakpoint
INSERT INTO sitemap_months (month, articles)
SELECT to_char(first_seen_at AT TIME ZONE 'UTC', 'YYYY-MM'), count(*)
  FROM articles WHERE taken_down_at IS NULL GROUP BY 1;
