CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION english_unaccent (COPY = english);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION english_unaccent ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;--> statement-breakpoint
ALTER TABLE "articles" drop column "search";--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english_unaccent'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('english_unaccent'::regconfig, coalesce(excerpt, '')), 'B')) STORED;--> statement-breakpoint
ALTER TABLE "blog_posts" drop column "search";--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english_unaccent'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('english_unaccent'::regconfig, coalesce(description, '')), 'B')) STORED;--> statement-breakpoint
CREATE INDEX "articles_first_seen_idx" ON "articles" USING btree ("first_seen_at","id") WHERE "articles"."taken_down_at" IS NULL;--> statement-breakpoint
CREATE INDEX "articles_month_updated_idx" ON "articles" USING btree (date_trunc('month', "first_seen_at" AT TIME ZONE 'UTC'),"updated_at" DESC NULLS FIRST) WHERE "articles"."taken_down_at" IS NULL;--> statement-breakpoint
CREATE INDEX "articles_title_trgm_idx" ON "articles" USING gin ("title" gin_trgm_ops) WHERE "articles"."taken_down_at" IS NULL;--> statement-breakpoint
CREATE INDEX "articles_search_idx" ON "articles" USING gin ("search");--> statement-breakpoint
CREATE INDEX "blog_posts_search_idx" ON "blog_posts" USING gin ("search");
