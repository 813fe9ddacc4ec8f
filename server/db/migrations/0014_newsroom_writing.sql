CREATE TABLE "newsroom_media" (
	"id" serial PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"color" text NOT NULL,
	"focus_x" integer DEFAULT 50 NOT NULL,
	"focus_y" integer DEFAULT 50 NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"credit" text DEFAULT '' NOT NULL,
	"filename" text DEFAULT '' NOT NULL,
	"bytes" integer NOT NULL,
	"uploaded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "newsroom_media_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "newsroom_posts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"draft" jsonb NOT NULL,
	"live" jsonb,
	"status" text DEFAULT 'draft' NOT NULL,
	"publish_at" timestamp with time zone,
	"first_published_at" timestamp with time zone,
	"slug" text,
	"article_id" text,
	"created_by" text NOT NULL,
	"updated_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "newsroom_posts_slug_unique" UNIQUE("slug"),
	CONSTRAINT "newsroom_posts_article_id_unique" UNIQUE("article_id")
);
--> statement-breakpoint
CREATE TABLE "newsroom_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"post_id" integer NOT NULL,
	"fields" jsonb NOT NULL,
	"kind" text NOT NULL,
	"staff_id" integer,
	"staff_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "own" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "bylines" text[];--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "picture_alt" text;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "picture_credit" text;--> statement-breakpoint
ALTER TABLE "newsroom_revisions" ADD CONSTRAINT "newsroom_revisions_post_id_newsroom_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."newsroom_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "newsroom_media_created_idx" ON "newsroom_media" USING btree ("created_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "newsroom_posts_due_idx" ON "newsroom_posts" USING btree ("publish_at") WHERE "newsroom_posts"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "newsroom_posts_updated_idx" ON "newsroom_posts" USING btree ("updated_at" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "newsroom_posts_live_blog_idx" ON "newsroom_posts" USING btree ("first_published_at" DESC NULLS FIRST,"id") WHERE "newsroom_posts"."kind" = 'blog' AND "newsroom_posts"."status" = 'published';--> statement-breakpoint
CREATE INDEX "newsroom_revisions_post_idx" ON "newsroom_revisions" USING btree ("post_id","id");