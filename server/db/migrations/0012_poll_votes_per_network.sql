DROP INDEX "poll_votes_one_per_address_and_day";--> statement-breakpoint
CREATE INDEX "poll_votes_address_and_day_idx" ON "poll_votes" USING btree ("poll_id","address_key");