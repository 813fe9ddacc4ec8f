CREATE TABLE "newsletter_confirmations" (
	"id" serial PRIMARY KEY NOT NULL,
	"mailbox" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "newsletter_confirmations_mailbox_idx" ON "newsletter_confirmations" USING btree ("mailbox","sent_at");--> statement-breakpoint
CREATE INDEX "newsletter_confirmations_sent_idx" ON "newsletter_confirmations" USING btree ("sent_at");