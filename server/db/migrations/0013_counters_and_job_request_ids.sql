CREATE TABLE "counters" (
	"name" text NOT NULL,
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"reset_at" timestamp with time zone NOT NULL,
	"n" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"tags" text[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "counters_name_key_pk" PRIMARY KEY("name","key")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "request_id" text;--> statement-breakpoint
CREATE INDEX "counters_reset_at_idx" ON "counters" USING btree ("reset_at");