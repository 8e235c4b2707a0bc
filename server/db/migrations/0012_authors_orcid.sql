ALTER TABLE "article_authors" ADD COLUMN "orcid" text;--> statement-breakpoint
ALTER TABLE "submission_authors" ADD COLUMN "orcid" text;