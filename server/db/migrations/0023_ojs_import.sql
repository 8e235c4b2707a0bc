CREATE TABLE "article_files" (
	"journal_id" integer DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"id" serial PRIMARY KEY NOT NULL,
	"article_id" integer NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"locale" text DEFAULT '' NOT NULL,
	"file_id" integer,
	"url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "article_files_position_unique" UNIQUE("article_id","position"),
	CONSTRAINT "article_files_file_or_url_check" CHECK (("article_files"."file_id" is null) <> ("article_files"."url" is null))
);
--> statement-breakpoint
CREATE TABLE "import_runs" (
	"journal_id" integer DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"id" serial PRIMARY KEY NOT NULL,
	"source" text DEFAULT 'ojs' NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"files" jsonb NOT NULL,
	"old_path" text,
	"send_password_links" boolean DEFAULT false NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"current" text DEFAULT '' NOT NULL,
	"report" jsonb,
	"error" text,
	"started_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "imported_records" (
	"journal_id" integer DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"id" serial PRIMARY KEY NOT NULL,
	"source" text DEFAULT 'ojs' NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"local_id" integer NOT NULL,
	"fingerprint" text DEFAULT '' NOT NULL,
	"run_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imported_records_source_unique" UNIQUE("journal_id","source","kind","source_id")
);
--> statement-breakpoint
CREATE TABLE "legacy_paths" (
	"path" text PRIMARY KEY NOT NULL,
	"journal_id" integer NOT NULL,
	"source" text DEFAULT 'ojs' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "legacy_paths_lower_check" CHECK ("legacy_paths"."path" = lower("legacy_paths"."path"))
);
--> statement-breakpoint
ALTER TABLE "article_authors" ADD COLUMN "country" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "article_authors" ADD COLUMN "ror" text;--> statement-breakpoint
ALTER TABLE "article_authors" ADD COLUMN "primary_contact" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "subtitle" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "section" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "language" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "license_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "copyright_holder" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "copyright_year" integer;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "references" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "cover_file_id" integer;--> statement-breakpoint
ALTER TABLE "article_files" ADD CONSTRAINT "article_files_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_files" ADD CONSTRAINT "article_files_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_files" ADD CONSTRAINT "article_files_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_runs" ADD CONSTRAINT "import_runs_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imported_records" ADD CONSTRAINT "imported_records_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legacy_paths" ADD CONSTRAINT "legacy_paths_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_runs_journal_idx" ON "import_runs" USING btree ("journal_id","created_at");--> statement-breakpoint
CREATE INDEX "imported_records_local_idx" ON "imported_records" USING btree ("journal_id","kind","local_id");--> statement-breakpoint
CREATE INDEX "legacy_paths_journal_idx" ON "legacy_paths" USING btree ("journal_id");--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_cover_file_id_stored_files_id_fk" FOREIGN KEY ("cover_file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
-- hand-written below
ALTER TABLE "article_files" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "article_files_journal" ON "article_files" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "article_files_site" ON "article_files" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "import_runs" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "import_runs_journal" ON "import_runs" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "import_runs_site" ON "import_runs" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "imported_records" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "imported_records_journal" ON "imported_records" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "imported_records_site" ON "imported_records" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
