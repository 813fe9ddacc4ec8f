CREATE TABLE "story_group_overrides" (
	"article_id" text PRIMARY KEY NOT NULL,
	"decision" text NOT NULL,
	"decided_by" text NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "story_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"lead_id" text NOT NULL,
	"lead_by_staff" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "story_group" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "group_lead" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "category_lead" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "also_covered_by" text[];--> statement-breakpoint
ALTER TABLE "story_group_overrides" ADD CONSTRAINT "story_group_overrides_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_story_group_story_groups_id_fk" FOREIGN KEY ("story_group") REFERENCES "public"."story_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "articles_story_group_idx" ON "articles" USING btree ("story_group") WHERE "articles"."story_group" IS NOT NULL;--> statement-breakpoint
-- The archives count one card per story group (decision 032): a category's rows count the stories
-- that lead their group in that category, the row of category '' (every category) those that lead
-- their group. Alone, a story leads both.
CREATE OR REPLACE FUNCTION archive_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO archive_counts (year, category, articles)
    SELECT year, category, count(*) FROM (
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int AS year, category
        FROM new_rows WHERE taken_down_at IS NULL AND category_lead
      UNION ALL
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, ''
        FROM new_rows WHERE taken_down_at IS NULL AND group_lead
    ) added GROUP BY year, category
    ON CONFLICT (year, category) DO UPDATE SET articles = archive_counts.articles + excluded.articles;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO archive_counts (year, category, articles)
    SELECT year, category, -count(*) FROM (
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int AS year, category
        FROM old_rows WHERE taken_down_at IS NULL AND category_lead
      UNION ALL
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, ''
        FROM old_rows WHERE taken_down_at IS NULL AND group_lead
    ) removed GROUP BY year, category
    ON CONFLICT (year, category) DO UPDATE SET articles = archive_counts.articles + excluded.articles;
  ELSE
    INSERT INTO archive_counts (year, category, articles)
    SELECT year, category, sum(change) FROM (
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int AS year, category, 1 AS change
        FROM new_rows WHERE taken_down_at IS NULL AND category_lead
      UNION ALL
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, '', 1
        FROM new_rows WHERE taken_down_at IS NULL AND group_lead
      UNION ALL
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, category, -1
        FROM old_rows WHERE taken_down_at IS NULL AND category_lead
      UNION ALL
      SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, '', -1
        FROM old_rows WHERE taken_down_at IS NULL AND group_lead
    ) changes GROUP BY year, category HAVING sum(change) <> 0
    ON CONFLICT (year, category) DO UPDATE SET articles = archive_counts.articles + excluded.articles;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
INSERT INTO archive_counts (year, category, articles)
SELECT extract(year FROM published_at AT TIME ZONE 'America/Los_Angeles')::int, '', count(*)
  FROM articles WHERE taken_down_at IS NULL GROUP BY 1
ON CONFLICT (year, category) DO UPDATE SET articles = excluded.articles;
