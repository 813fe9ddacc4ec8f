CREATE TABLE "block_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"feed_id" integer,
	"field" text NOT NULL,
	"pattern" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"article_id" text NOT NULL,
	"text" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "story_pins" (
	"article_id" text PRIMARY KEY NOT NULL,
	"position" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "articles_category_published_idx";--> statement-breakpoint
DROP INDEX "articles_published_idx";--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "feed_title" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "default_picture" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "taken_down_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "takedown_reason" text;--> statement-breakpoint
ALTER TABLE "block_rules" ADD CONSTRAINT "block_rules_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corrections" ADD CONSTRAINT "corrections_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_pins" ADD CONSTRAINT "story_pins_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "corrections_article_idx" ON "corrections" USING btree ("article_id");--> statement-breakpoint
CREATE INDEX "corrections_published_idx" ON "corrections" USING btree ("published_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "articles_taken_down_idx" ON "articles" USING btree ("taken_down_at" DESC NULLS LAST) WHERE "articles"."taken_down_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "articles_category_published_idx" ON "articles" USING btree ("category","published_at" DESC NULLS FIRST) WHERE "articles"."taken_down_at" IS NULL;--> statement-breakpoint
CREATE INDEX "articles_published_idx" ON "articles" USING btree ("published_at" DESC NULLS FIRST) WHERE "articles"."taken_down_at" IS NULL;