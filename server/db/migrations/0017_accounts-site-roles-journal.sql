-- Accounts are the site's, roles are the journal's (decision 0054): an account's role and status live only in
-- journal_memberships. Accounts made after 0016's backfill by a release that still wrote users.role/status get
-- their membership of journal 1 here, before the columns go.
INSERT INTO "journal_memberships" ("journal_id", "user_id", "role", "status", "created_at", "updated_at")
SELECT 1, "id", "role", "status", "created_at", "updated_at" FROM "users"
WHERE NOT EXISTS (SELECT 1 FROM "journal_memberships" m WHERE m."user_id" = "users"."id");--> statement-breakpoint
DROP INDEX "users_status_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "role";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "status";
