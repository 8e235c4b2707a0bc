CREATE TABLE "doi_deposits" (
	"journal_id" integer DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"article_id" integer PRIMARY KEY NOT NULL,
	"state" text DEFAULT 'not_deposited' NOT NULL,
	"message" text,
	"batch_id" text,
	"batch_timestamp" bigint,
	"submission_id" text,
	"sent_digest" text,
	"deposited_doi" text,
	"deposited_at" timestamp with time zone,
	"registered_at" timestamp with time zone,
	"doaj_state" text DEFAULT 'not_deposited' NOT NULL,
	"doaj_message" text,
	"doaj_id" text,
	"doaj_digest" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "doi_settings" (
	"journal_id" integer PRIMARY KEY DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"pattern" text DEFAULT '' NOT NULL,
	"crossref_username" text DEFAULT '' NOT NULL,
	"crossref_password" text DEFAULT '' NOT NULL,
	"crossref_mode" text DEFAULT 'test' NOT NULL,
	"crossref_endpoint" text DEFAULT '' NOT NULL,
	"auto_deposit" boolean DEFAULT true NOT NULL,
	"doaj_enabled" boolean DEFAULT false NOT NULL,
	"doaj_api_key" text DEFAULT '' NOT NULL,
	"doaj_endpoint" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "doi_deposits" ADD CONSTRAINT "doi_deposits_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doi_deposits" ADD CONSTRAINT "doi_deposits_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "doi_settings" ADD CONSTRAINT "doi_settings_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "doi_deposits_state_idx" ON "doi_deposits" USING btree ("journal_id","state");--> statement-breakpoint
-- hand-written below
ALTER TABLE "doi_settings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "doi_settings_journal" ON "doi_settings" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "doi_settings_site" ON "doi_settings" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "doi_deposits" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "doi_deposits_journal" ON "doi_deposits" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "doi_deposits_site" ON "doi_deposits" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
