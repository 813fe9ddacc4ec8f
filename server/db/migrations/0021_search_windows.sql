CREATE TABLE "search_windows" (
	"stories" integer PRIMARY KEY NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"cuts" boolean NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
