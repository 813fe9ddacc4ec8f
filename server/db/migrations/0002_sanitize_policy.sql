ALTER TABLE "articles" ADD COLUMN "sanitize_policy" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "articles_sanitize_policy_idx" ON "articles" USING btree ("sanitize_policy");