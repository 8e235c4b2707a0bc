CREATE TABLE "full_texts" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer,
	"article_id" integer,
	"source_file_id" integer NOT NULL,
	"document" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "full_texts_submission_id_unique" UNIQUE("submission_id"),
	CONSTRAINT "full_texts_article_id_unique" UNIQUE("article_id")
);
--> statement-breakpoint
ALTER TABLE "full_texts" ADD CONSTRAINT "full_texts_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "full_texts" ADD CONSTRAINT "full_texts_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "full_texts" ADD CONSTRAINT "full_texts_source_file_id_stored_files_id_fk" FOREIGN KEY ("source_file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "full_texts_source_idx" ON "full_texts" USING btree ("source_file_id");