CREATE TABLE "similarity_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" integer NOT NULL,
	"group_key" text NOT NULL,
	"title" text NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"word_count" integer NOT NULL,
	"fingerprint_count" integer NOT NULL,
	"text" text NOT NULL,
	"word_hashes" "bytea" NOT NULL,
	"content_sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "similarity_fingerprints" (
	"document_id" integer NOT NULL,
	"position" integer NOT NULL,
	"hash" integer NOT NULL,
	CONSTRAINT "similarity_fingerprints_pk" PRIMARY KEY("document_id","position")
);
--> statement-breakpoint
CREATE TABLE "similarity_vocabulary" (
	"word" text PRIMARY KEY NOT NULL,
	"documents" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "similarity_fingerprints" ADD CONSTRAINT "similarity_fingerprints_document_id_similarity_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."similarity_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "similarity_documents_source_unique" ON "similarity_documents" USING btree ("source_kind","source_id");--> statement-breakpoint
CREATE INDEX "similarity_documents_group_idx" ON "similarity_documents" USING btree ("group_key");--> statement-breakpoint
CREATE INDEX "similarity_fingerprints_hash_idx" ON "similarity_fingerprints" USING btree ("hash","document_id");