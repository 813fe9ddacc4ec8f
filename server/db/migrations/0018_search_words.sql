CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP INDEX "articles_title_trgm_idx";--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The words of new or changed headlines, once per statement; words are never removed (a word
-- nobody uses any more only costs a row).
CREATE FUNCTION search_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_words (word)
    SELECT DISTINCT w FROM new_rows, regexp_split_to_table(lower(unaccent(title)), '[^[:alnum:]]+') AS w
     WHERE length(w) >= 3
    ON CONFLICT (word) DO NOTHING;
  ELSE
    -- Only retitled stories: the picture pass and ingest update many rows whose headline stays.
    INSERT INTO search_words (word)
    SELECT DISTINCT w
      FROM new_rows n JOIN old_rows o ON o.id = n.id,
           regexp_split_to_table(lower(unaccent(n.title)), '[^[:alnum:]]+') AS w
     WHERE n.title IS DISTINCT FROM o.title AND length(w) >= 3
    ON CONFLICT (word) DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER search_words_insert AFTER INSERT ON articles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();--> statement-breakpoint
CREATE TRIGGER search_words_update AFTER UPDATE ON articles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_add();--> statement-breakpoint
INSERT INTO search_words (word)
SELECT DISTINCT w FROM articles, regexp_split_to_table(lower(unaccent(title)), '[^[:alnum:]]+') AS w
 WHERE length(w) >= 3
ON CONFLICT (word) DO NOTHING;
