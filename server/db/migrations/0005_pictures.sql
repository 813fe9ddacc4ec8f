CREATE TABLE "article_pictures" (
	"article_id" text NOT NULL,
	"url" text NOT NULL,
	CONSTRAINT "article_pictures_article_id_url_pk" PRIMARY KEY("article_id","url")
);
--> statement-breakpoint
CREATE TABLE "pictures" (
	"url" text PRIMARY KEY NOT NULL,
	"picture" jsonb,
	"hash" text,
	"etag" text,
	"last_modified" text,
	"checked_at" timestamp with time zone,
	"last_error" text,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "picture" jsonb;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "pictures_listed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "article_pictures" ADD CONSTRAINT "article_pictures_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_pictures_url_idx" ON "article_pictures" USING btree ("url");--> statement-breakpoint
CREATE INDEX "pictures_hash_idx" ON "pictures" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "pictures_next_attempt_idx" ON "pictures" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "articles_pictures_unlisted_idx" ON "articles" USING btree ("id") WHERE NOT "articles"."pictures_listed";