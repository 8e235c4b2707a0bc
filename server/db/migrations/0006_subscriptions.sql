CREATE TABLE "issue_alert_deliveries" (
	"issue_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issue_alert_deliveries_issue_id_user_id_pk" PRIMARY KEY("issue_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "issue_alerts" (
	"issue_id" integer PRIMARY KEY NOT NULL,
	"requested_by" integer,
	"requested_by_username" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recipients" integer NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "unsubscribe_token" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "issue_alert_deliveries" ADD CONSTRAINT "issue_alert_deliveries_issue_id_issue_alerts_issue_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issue_alerts"("issue_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_alert_deliveries" ADD CONSTRAINT "issue_alert_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_alerts" ADD CONSTRAINT "issue_alerts_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_alerts" ADD CONSTRAINT "issue_alerts_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issue_alert_deliveries_status_idx" ON "issue_alert_deliveries" USING btree ("issue_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_unsubscribe_token_idx" ON "subscriptions" USING btree ("unsubscribe_token");