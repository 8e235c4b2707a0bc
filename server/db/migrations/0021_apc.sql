CREATE TABLE "apc_invoices" (
	"journal_id" integer DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"number" text NOT NULL,
	"year" integer NOT NULL,
	"seq" integer NOT NULL,
	"submitted_on" text NOT NULL,
	"issued_on" text NOT NULL,
	"currency" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"reason" text NOT NULL,
	"payment_instructions" text NOT NULL,
	"waiver_state" text,
	"waiver_reason" text DEFAULT '' NOT NULL,
	"waiver_message" text DEFAULT '' NOT NULL,
	"waived_minor" integer DEFAULT 0 NOT NULL,
	"voucher_id" integer,
	"discount_minor" integer DEFAULT 0 NOT NULL,
	"voided_at" timestamp with time zone,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "apc_invoices_submission_unique" UNIQUE("submission_id"),
	CONSTRAINT "apc_invoices_journal_number_unique" UNIQUE("journal_id","number")
);
--> statement-breakpoint
CREATE TABLE "apc_payments" (
	"journal_id" integer DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"paid_on" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"method" text NOT NULL,
	"reference" text NOT NULL,
	"recorded_by_id" integer,
	"recorded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "apc_vouchers" (
	"journal_id" integer DEFAULT current_setting('colophon.journal')::int NOT NULL,
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"reviewer_id" integer,
	"reviewer_name" text NOT NULL,
	"reviewer_email" text NOT NULL,
	"assignment_id" integer,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"currency" text NOT NULL,
	"expires_on" text NOT NULL,
	"used_at" timestamp with time zone,
	"used_invoice_id" integer,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "apc_invoices" ADD CONSTRAINT "apc_invoices_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apc_invoices" ADD CONSTRAINT "apc_invoices_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apc_payments" ADD CONSTRAINT "apc_payments_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apc_payments" ADD CONSTRAINT "apc_payments_invoice_id_apc_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."apc_invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apc_payments" ADD CONSTRAINT "apc_payments_recorded_by_id_users_id_fk" FOREIGN KEY ("recorded_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apc_vouchers" ADD CONSTRAINT "apc_vouchers_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apc_vouchers" ADD CONSTRAINT "apc_vouchers_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apc_vouchers" ADD CONSTRAINT "apc_vouchers_assignment_id_review_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."review_assignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apc_vouchers" ADD CONSTRAINT "apc_vouchers_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "apc_invoices_created_idx" ON "apc_invoices" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "apc_payments_invoice_reference_idx" ON "apc_payments" USING btree ("invoice_id",lower("reference"));--> statement-breakpoint
CREATE UNIQUE INDEX "apc_vouchers_code_idx" ON "apc_vouchers" USING btree ("code");--> statement-breakpoint
CREATE INDEX "apc_vouchers_assignment_idx" ON "apc_vouchers" USING btree ("assignment_id");
-- hand-written below
--> statement-breakpoint
ALTER TABLE "apc_invoices" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "apc_invoices_journal" ON "apc_invoices" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "apc_invoices_site" ON "apc_invoices" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "apc_payments" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "apc_payments_journal" ON "apc_payments" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "apc_payments_site" ON "apc_payments" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE "apc_vouchers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "apc_vouchers_journal" ON "apc_vouchers" AS PERMISSIVE FOR ALL TO colophon_journal USING ("journal_id" = current_setting('colophon.journal')::int) WITH CHECK ("journal_id" = current_setting('colophon.journal')::int);
--> statement-breakpoint
CREATE POLICY "apc_vouchers_site" ON "apc_vouchers" AS PERMISSIVE FOR ALL TO colophon_site USING (true) WITH CHECK (true);
--> statement-breakpoint
-- The /apc page states the rule from the journal's APC settings (decision 0063): a stored page that still has
-- the seed's hard-coded table gets the placeholder instead; a table the office wrote itself is left alone.
UPDATE "settings" SET "value" = to_jsonb(replace("value" #>> '{}', E'| Manuscript submitted | Article processing charge |\n| --- | --- |\n| Before 1 June 2025 | **0 USD** (free of charge) |\n| On or after 1 June 2025 | **100 USD** per accepted article |', '{{apc.rule}}'))
WHERE "key" = 'content.page.apc' AND jsonb_typeof("value") = 'string' AND position(E'| Manuscript submitted | Article processing charge |\n| --- | --- |\n| Before 1 June 2025 | **0 USD** (free of charge) |\n| On or after 1 June 2025 | **100 USD** per accepted article |' in "value" #>> '{}') > 0;
--> statement-breakpoint
UPDATE "settings" SET "value" = to_jsonb(replace("value" #>> '{}', 'All charges are in US dollars (USD).', 'All charges are in {{apc.currencyName}} ({{apc.currency}}).'))
WHERE "key" = 'content.page.apc' AND jsonb_typeof("value") = 'string' AND position('All charges are in US dollars (USD).' in "value" #>> '{}') > 0;
