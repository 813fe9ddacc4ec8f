CREATE INDEX "staff_audit_subject_idx" ON "staff_audit" USING btree ("subject","created_at");--> statement-breakpoint
-- A deleted contact message's audit entry keeps that it was deleted, by whom and when, and the
-- message's date, category and state: never the reader's name, address or words (issue 32).
UPDATE "staff_audit"
   SET "before" = jsonb_build_object(
         'received', "before"->'received',
         'category', "before"->'category',
         'handled', "before"->'handled',
         'automated', ("before"->>'spamReason') IS NOT NULL)
 WHERE "action" = 'inbox.delete'
   AND jsonb_typeof("before") = 'object'
   AND "before" ?| array['name', 'email', 'message', 'spamReason'];
