CREATE TABLE "archive_counts" (
	"year" integer NOT NULL,
	"category" text NOT NULL,
	"articles" integer NOT NULL,
	CONSTRAINT "archive_counts_year_category_pk" PRIMARY KEY("year","category")
);
--> statement-breakpoint
-- Kept per statement from its transition tables: one small upsert per write, whatever the number
-- of rows; an update that moves no story between years, categories or on/off the site writes nothing.
CREATE FUNCTION archive_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO archive_counts (year, category, articles)
    SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, category, count(*)
      FROM new_rows WHERE taken_down_at IS NULL GROUP BY 1, 2
    ON CONFLICT (year, category) DO UPDATE SET articles = archive_counts.articles + excluded.articles;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO archive_counts (year, category, articles)
    SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, category, -count(*)
      FROM old_rows WHERE taken_down_at IS NULL GROUP BY 1, 2
    ON CONFLICT (year, category) DO UPDATE SET articles = archive_counts.articles + excluded.articles;
  ELSE
    INSERT INTO archive_counts (year, category, articles)
    SELECT year, category, sum(change) FROM (
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int AS year, category, 1 AS change
        FROM new_rows WHERE taken_down_at IS NULL
      UNION ALL
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, category, -1
        FROM old_rows WHERE taken_down_at IS NULL
    ) changes GROUP BY year, category HAVING sum(change) <> 0
    ON CONFLICT (year, category) DO UPDATE SET articles = archive_counts.articles + excluded.articles;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER archive_counts_insert AFTER INSERT ON articles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION archive_counts_apply();--> statement-breakpoint
CREATE TRIGGER archive_counts_update AFTER UPDATE ON articles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION archive_counts_apply();--> statement-breakpoint
CREATE TRIGGER archive_counts_delete AFTER DELETE ON articles
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION archive_counts_apply();--> statement-breakpoint
INSERT INTO archive_counts (year, category, articles)
SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, category, count(*)
  FROM articles WHERE taken_down_at IS NULL GROUP BY 1, 2;
