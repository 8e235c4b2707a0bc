CREATE TABLE "similarity_checks" (
	"submission_file_id" integer PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"plagiarism_percentage" double precision,
	"grammar_quality_percentage" double precision,
	"report" jsonb,
	"error" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "similarity_checks_submission_idx" ON "similarity_checks" USING btree ("submission_id");