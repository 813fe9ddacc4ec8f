ALTER TABLE "feeds" ADD COLUMN "last_outcome" text;--> statement-breakpoint
ALTER TABLE "feeds" ADD COLUMN "last_item_count" integer;