CREATE TABLE "preservation_bags" (
	"journal_id" integer DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"issue_id" integer PRIMARY KEY NOT NULL,
	"file_id" integer NOT NULL,
	"made_at" timestamp with time zone NOT NULL,
	"files" integer NOT NULL,
	"payload_oxum" text NOT NULL,
	"article_ids" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "preservation_bags" ADD CONSTRAINT "preservation_bags_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preservation_bags" ADD CONSTRAINT "preservation_bags_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preservation_bags" ADD CONSTRAINT "preservation_bags_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "preservation_bags_journal_idx" ON "preservation_bags" USING btree ("journal_id");-- hand-written below
ALTER TABLE "preservation_bags" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "preservation_bags_journal" ON "preservation_bags" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "preservation_bags_site" ON "preservation_bags" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
