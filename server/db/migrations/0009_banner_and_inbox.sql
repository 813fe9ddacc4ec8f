CREATE TABLE "breaking_banner" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"text" text NOT NULL,
	"link" text,
	"expires_at" timestamp with time zone NOT NULL,
	"set_by" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "breaking_banner_one_row" CHECK ("breaking_banner"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "handled_by" text;