CREATE TABLE "site_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "spam_reason" text;--> statement-breakpoint
ALTER TABLE "poll_votes" ADD COLUMN "address_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "poll_votes_one_per_address_and_day" ON "poll_votes" USING btree ("poll_id","address_key");