CREATE TABLE "cache_version" (
	"id" smallint PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "cache_version" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;
