CREATE TABLE "similarity_unreadable" (
	"source_kind" text NOT NULL,
	"source_id" integer NOT NULL,
	"content_sha256" text NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "similarity_unreadable_pk" PRIMARY KEY("source_kind","source_id")
);
