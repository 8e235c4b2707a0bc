CREATE TABLE "similarity_unreadable" (
	"source_kind" text NOT NULL,
	"source_id" integer NOT NULL,
	"content_sha256" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "similarity_unreadable_pk" PRIMARY KEY("source_kind","source_id")
);
--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "publication_month" smallint;--> statement-breakpoint
ALTER TABLE "submission_events" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "copyright_file_id" integer;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "final_pdf_file_id" integer;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD COLUMN "attachment_author_file_id" integer;--> statement-breakpoint
ALTER TABLE "full_texts" ADD COLUMN "pending_article_id" integer;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_copyright_file_id_stored_files_id_fk" FOREIGN KEY ("copyright_file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_final_pdf_file_id_stored_files_id_fk" FOREIGN KEY ("final_pdf_file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_assignments" ADD CONSTRAINT "review_assignments_attachment_author_file_id_stored_files_id_fk" FOREIGN KEY ("attachment_author_file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "full_texts" ADD CONSTRAINT "full_texts_pending_article_id_articles_id_fk" FOREIGN KEY ("pending_article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "full_texts" ADD CONSTRAINT "full_texts_pending_article_id_unique" UNIQUE("pending_article_id");--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_publication_month_check" CHECK ("issues"."publication_month" between 1 and 12);--> statement-breakpoint
-- Hand-written: an issue that already has a date of publication in its volume's year is of that month.
UPDATE "issues" SET "publication_month" = extract(month from "issues"."publication_date")::smallint FROM "volumes" WHERE "volumes"."id" = "issues"."volume_id" AND "issues"."publication_date" IS NOT NULL AND extract(year from "issues"."publication_date")::int = "volumes"."year";
