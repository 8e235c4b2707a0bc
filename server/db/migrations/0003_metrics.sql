CREATE TABLE "article_usage" (
	"article_id" integer NOT NULL,
	"month" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "article_usage_article_id_month_pk" PRIMARY KEY("article_id","month")
);
--> statement-breakpoint
CREATE TABLE "usage_clicks" (
	"visitor" text NOT NULL,
	"article_id" integer NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"counted" boolean DEFAULT true NOT NULL,
	CONSTRAINT "usage_clicks_visitor_article_id_kind_pk" PRIMARY KEY("visitor","article_id","kind")
);
--> statement-breakpoint
ALTER TABLE "article_usage" ADD CONSTRAINT "article_usage_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_clicks" ADD CONSTRAINT "usage_clicks_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_clicks_at_idx" ON "usage_clicks" USING btree ("at");