-- Several journals on one installation (issue 24, decision 0053). Hand-written: the data of the one journal an
-- installation had becomes journal 1, at the site's root, with nothing lost; every table of a journal's own
-- data gains `journal_id` (journal 1 for every existing row), and row-level security shows a connection only
-- the rows of the journal its scope names (server/db/scope.ts).
CREATE TABLE "journals" (
	"id" serial PRIMARY KEY NOT NULL,
	"path" text,
	"domain" text,
	"title" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journal_aliases" (
	"id" serial PRIMARY KEY NOT NULL,
	"journal_id" integer NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"automatic" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "journal_aliases" ADD CONSTRAINT "journal_aliases_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "journal_aliases_value_idx" ON "journal_aliases" USING btree ("kind",lower("value"));
--> statement-breakpoint
CREATE INDEX "journal_aliases_journal_idx" ON "journal_aliases" USING btree ("journal_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "journals_path_idx" ON "journals" USING btree (lower("path"));
--> statement-breakpoint
CREATE UNIQUE INDEX "journals_domain_idx" ON "journals" USING btree (lower("domain"));
--> statement-breakpoint
-- The installation's journal until now: id 1, at the root, named as its settings name it.
INSERT INTO "journals" ("id", "title") VALUES (1, coalesce((SELECT "value"->>'name' FROM "settings" WHERE "key" = 'journal'), 'Journal'));
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('journals', 'id'), 1);
--> statement-breakpoint
ALTER TABLE "volumes" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "volumes" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "volumes" ADD CONSTRAINT "volumes_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "issues" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "articles" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "article_authors" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "article_authors" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "article_authors" ADD CONSTRAINT "article_authors_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "submissions" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "submission_authors" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "submission_authors" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "submission_authors" ADD CONSTRAINT "submission_authors_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "submission_files" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "submission_files" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "submission_files" ADD CONSTRAINT "submission_files_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "submission_events" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "submission_events" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "submission_events" ADD CONSTRAINT "submission_events_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "reviewer_profiles" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "reviewer_profiles" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "reviewer_profiles" ADD CONSTRAINT "reviewer_profiles_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "review_forms" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "review_forms" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "review_forms" ADD CONSTRAINT "review_forms_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "review_rounds" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "review_rounds" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "review_rounds" ADD CONSTRAINT "review_rounds_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "review_assignments" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "review_assignments" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "review_reminders" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "review_reminders" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "review_reminders" ADD CONSTRAINT "review_reminders_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "similarity_checks" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "similarity_checks" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "similarity_checks" ADD CONSTRAINT "similarity_checks_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "settings" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "full_texts" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "full_texts" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "full_texts" ADD CONSTRAINT "full_texts_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "contact_messages" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "daily_digests" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "daily_digests" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "daily_digests" ADD CONSTRAINT "daily_digests_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "subscriptions" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "issue_alerts" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "issue_alerts" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "issue_alerts" ADD CONSTRAINT "issue_alerts_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "issue_alert_deliveries" ADD COLUMN "journal_id" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "issue_alert_deliveries" ALTER COLUMN "journal_id" SET DEFAULT current_setting('colophon.journal')::int;
--> statement-breakpoint
ALTER TABLE "issue_alert_deliveries" ADD CONSTRAINT "issue_alert_deliveries_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "mail_log" ADD COLUMN "journal_id" integer DEFAULT 1;
--> statement-breakpoint
ALTER TABLE "mail_log" ALTER COLUMN "journal_id" SET DEFAULT nullif(current_setting('colophon.journal'), '0')::int;
--> statement-breakpoint
ALTER TABLE "mail_log" ADD CONSTRAINT "mail_log_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "journal_id" integer DEFAULT 1;
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "journal_id" SET DEFAULT nullif(current_setting('colophon.journal'), '0')::int;
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "journal_memberships" (
	"journal_id" integer DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_memberships_journal_id_user_id_pk" PRIMARY KEY("journal_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "journal_memberships" ADD CONSTRAINT "journal_memberships_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "journal_memberships" ADD CONSTRAINT "journal_memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "journal_memberships_user_idx" ON "journal_memberships" USING btree ("user_id");
--> statement-breakpoint
CREATE INDEX "journal_memberships_status_idx" ON "journal_memberships" USING btree ("journal_id","status");
--> statement-breakpoint
-- Every account's role and standing so far are its role and standing in journal 1; its admins run the site.
INSERT INTO "journal_memberships" ("journal_id", "user_id", "role", "status", "created_at", "updated_at")
SELECT 1, "id", "role", "status", "created_at", "updated_at" FROM "users";
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "site_admin" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "users" SET "site_admin" = true WHERE "role" = 'admin';
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "journal_id" integer;
--> statement-breakpoint
UPDATE "jobs" SET "journal_id" = 1 WHERE "status" IN ('queued', 'running') AND ("key" IS NULL OR "key" NOT LIKE 'every:%');
--> statement-breakpoint
ALTER TABLE "daily_digests" DROP CONSTRAINT "daily_digests_pkey";
--> statement-breakpoint
ALTER TABLE "settings" DROP CONSTRAINT "settings_pkey";
--> statement-breakpoint
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_pkey";
--> statement-breakpoint
ALTER TABLE "daily_digests" ADD CONSTRAINT "daily_digests_journal_id_name_pk" PRIMARY KEY("journal_id","name");
--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_journal_id_key_pk" PRIMARY KEY("journal_id","key");
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_journal_id_user_id_pk" PRIMARY KEY("journal_id","user_id");
--> statement-breakpoint
ALTER TABLE "volumes" DROP CONSTRAINT "volumes_volume_number_unique";
--> statement-breakpoint
ALTER TABLE "submissions" DROP CONSTRAINT "submissions_reference_unique";
--> statement-breakpoint
DROP INDEX "reviewer_profiles_email_idx";
--> statement-breakpoint
DROP INDEX "reviewer_profiles_user_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "reviewer_profiles_email_idx" ON "reviewer_profiles" USING btree ("journal_id",lower("email"));
--> statement-breakpoint
CREATE UNIQUE INDEX "reviewer_profiles_user_idx" ON "reviewer_profiles" USING btree ("journal_id","user_id");
--> statement-breakpoint
ALTER TABLE "volumes" ADD CONSTRAINT "volumes_journal_number_unique" UNIQUE("journal_id","volume_number");
--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_journal_reference_unique" UNIQUE("journal_id","reference");
--> statement-breakpoint
-- The two roles a connection works as (server/db/scope.ts): one journal's, or the site's (every journal).
-- Roles belong to the whole PostgreSQL server: made once, by whichever database migrates first.
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'colophon_journal') THEN CREATE ROLE colophon_journal NOLOGIN; END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'colophon_site') THEN CREATE ROLE colophon_site NOLOGIN; END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
-- The account the server signs in with must be able to become them (a superuser can already).
DO $$ BEGIN
  IF NOT pg_has_role(current_user, 'colophon_journal', 'MEMBER') THEN EXECUTE format('GRANT colophon_journal TO %I', current_user); END IF;
  IF NOT pg_has_role(current_user, 'colophon_site', 'MEMBER') THEN EXECUTE format('GRANT colophon_site TO %I', current_user); END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO colophon_journal, colophon_site;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public TO colophon_journal, colophon_site;
--> statement-breakpoint
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO colophon_journal, colophon_site;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON TABLES TO colophon_journal, colophon_site;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO colophon_journal, colophon_site;
--> statement-breakpoint
ALTER TABLE "volumes" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "volumes_journal" ON "volumes" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "volumes_site" ON "volumes" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "issues" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "issues_journal" ON "issues" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "issues_site" ON "issues" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "articles" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "articles_journal" ON "articles" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "articles_site" ON "articles" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "article_authors" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "article_authors_journal" ON "article_authors" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "article_authors_site" ON "article_authors" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "submissions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "submissions_journal" ON "submissions" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "submissions_site" ON "submissions" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "submission_authors" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "submission_authors_journal" ON "submission_authors" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "submission_authors_site" ON "submission_authors" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "submission_files" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "submission_files_journal" ON "submission_files" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "submission_files_site" ON "submission_files" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "submission_events" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "submission_events_journal" ON "submission_events" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "submission_events_site" ON "submission_events" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "reviewer_profiles" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "reviewer_profiles_journal" ON "reviewer_profiles" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "reviewer_profiles_site" ON "reviewer_profiles" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "review_forms" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "review_forms_journal" ON "review_forms" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "review_forms_site" ON "review_forms" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "review_rounds" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "review_rounds_journal" ON "review_rounds" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "review_rounds_site" ON "review_rounds" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "review_assignments" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "review_assignments_journal" ON "review_assignments" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "review_assignments_site" ON "review_assignments" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "review_reminders" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "review_reminders_journal" ON "review_reminders" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "review_reminders_site" ON "review_reminders" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "similarity_checks" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "similarity_checks_journal" ON "similarity_checks" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "similarity_checks_site" ON "similarity_checks" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "settings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "settings_journal" ON "settings" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "settings_site" ON "settings" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "full_texts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "full_texts_journal" ON "full_texts" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "full_texts_site" ON "full_texts" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "contact_messages" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "contact_messages_journal" ON "contact_messages" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "contact_messages_site" ON "contact_messages" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "daily_digests" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "daily_digests_journal" ON "daily_digests" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "daily_digests_site" ON "daily_digests" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "subscriptions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "subscriptions_journal" ON "subscriptions" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "subscriptions_site" ON "subscriptions" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "issue_alerts" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "issue_alerts_journal" ON "issue_alerts" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "issue_alerts_site" ON "issue_alerts" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "issue_alert_deliveries" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "issue_alert_deliveries_journal" ON "issue_alert_deliveries" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "issue_alert_deliveries_site" ON "issue_alert_deliveries" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "mail_log" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "mail_log_journal" ON "mail_log" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "mail_log_site" ON "mail_log" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "audit_log_journal" ON "audit_log" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "audit_log_site" ON "audit_log" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "journal_memberships" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "journal_memberships_journal" ON "journal_memberships" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "journal_memberships_site" ON "journal_memberships" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
-- The search index is derived from the articles whatever scope changed them (a corpus job of the site's
-- included): its refresh reads the article as the owner does, and searching reads it through the articles.
ALTER FUNCTION search_refresh_metadata(integer) SECURITY DEFINER SET search_path = public;
--> statement-breakpoint
ALTER FUNCTION search_refresh_body(integer) SECURITY DEFINER SET search_path = public;
