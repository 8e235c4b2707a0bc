ALTER TABLE "similarity_documents" ADD COLUMN "journal_id" integer;--> statement-breakpoint
ALTER TABLE "similarity_documents" ADD CONSTRAINT "similarity_documents_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "similarity_documents_journal_idx" ON "similarity_documents" USING btree ("journal_id");--> statement-breakpoint
-- Each document is its source's journal's (decision 0058): every one is journal 1's on an upgraded installation.
UPDATE "similarity_documents" d SET "journal_id" = a."journal_id" FROM "articles" a WHERE d."source_kind" = 'article' AND a."id" = d."source_id";--> statement-breakpoint
UPDATE "similarity_documents" d SET "journal_id" = f."journal_id" FROM "submission_files" f WHERE d."source_kind" = 'submission_version' AND f."id" = d."source_id";--> statement-breakpoint
-- The recurring passes are the site's chores (0016 gave their rows journal 1, looking for another key prefix):
-- a pass over the journals has a row per journal instead, made by the queue (its one row of before is removed).
UPDATE "jobs" SET "journal_id" = NULL WHERE "key" LIKE 'every:%';
