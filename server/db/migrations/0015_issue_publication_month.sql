ALTER TABLE "issues" ADD COLUMN "publication_month" smallint;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_publication_month_check" CHECK ("issues"."publication_month" between 1 and 12);--> statement-breakpoint
-- Hand-written: an issue that already has a date of publication in its volume's year is of that month.
UPDATE "issues" SET "publication_month" = extract(month from "issues"."publication_date")::smallint FROM "volumes" WHERE "volumes"."id" = "issues"."volume_id" AND "issues"."publication_date" IS NOT NULL AND extract(year from "issues"."publication_date")::int = "volumes"."year";
