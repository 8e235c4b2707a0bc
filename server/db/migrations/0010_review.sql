CREATE TABLE "review_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"round_id" integer NOT NULL,
	"submission_id" integer NOT NULL,
	"profile_id" integer NOT NULL,
	"state" text DEFAULT 'invited' NOT NULL,
	"cancelled_from" text,
	"response_due" date NOT NULL,
	"review_due" date NOT NULL,
	"link_nonce" text NOT NULL,
	"warning" text,
	"invited_at" timestamp with time zone NOT NULL,
	"responded_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"decline_reason" text,
	"decline_comment" text,
	"suggested_reviewer" text,
	"read_at" timestamp with time zone,
	"thanked_at" timestamp with time zone,
	"rating" smallint,
	"recommendation" text,
	"comments_for_author" text DEFAULT '' NOT NULL,
	"confidential_comments" text DEFAULT '' NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attachment_file_id" integer,
	"publish_agreed" boolean DEFAULT false NOT NULL,
	"shared_at" timestamp with time zone,
	"draft_saved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "review_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"questions" jsonb NOT NULL,
	"previous_id" integer,
	"retired" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_reminders" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject_id" integer NOT NULL,
	"offset_days" integer,
	"due_at" timestamp with time zone NOT NULL,
	"mailed" boolean DEFAULT true NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "review_reminders_claim_unique" UNIQUE("kind","subject_id","offset_days")
);
--> statement-breakpoint
CREATE TABLE "review_rounds" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"number" integer NOT NULL,
	"version" integer NOT NULL,
	"mode" text NOT NULL,
	"form_id" integer,
	"reviewer_file_ids" jsonb NOT NULL,
	"author_response" text DEFAULT '' NOT NULL,
	"decision" text,
	"decided_at" timestamp with time zone,
	"revision_due" date,
	"revised_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_rounds_number_unique" UNIQUE("submission_id","number")
);
--> statement-breakpoint
CREATE TABLE "reviewer_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"affiliation" text DEFAULT '' NOT NULL,
	"interests" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"orcid" text,
	"unavailable_until" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_round_id_review_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."review_rounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_profile_id_reviewer_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."reviewer_profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_attachment_file_id_stored_files_id_fk" FOREIGN KEY ("attachment_file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_rounds" ADD CONSTRAINT "review_rounds_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_rounds" ADD CONSTRAINT "review_rounds_form_id_review_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."review_forms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviewer_profiles" ADD CONSTRAINT "reviewer_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_assignments_round_idx" ON "review_assignments" USING btree ("round_id");--> statement-breakpoint
CREATE INDEX "review_assignments_profile_idx" ON "review_assignments" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "review_assignments_submission_idx" ON "review_assignments" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "review_assignments_open_idx" ON "review_assignments" USING btree ("state");--> statement-breakpoint
CREATE UNIQUE INDEX "reviewer_profiles_email_idx" ON "reviewer_profiles" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "reviewer_profiles_user_idx" ON "reviewer_profiles" USING btree ("user_id");