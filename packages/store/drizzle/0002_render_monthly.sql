CREATE TABLE "render_monthly" (
	"environment_id" integer NOT NULL,
	"month" date NOT NULL,
	"kind" text NOT NULL,
	"watermarked" boolean NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "render_monthly_environment_id_month_kind_watermarked_pk" PRIMARY KEY("environment_id","month","kind","watermarked")
);
--> statement-breakpoint
ALTER TABLE "render_monthly" ADD CONSTRAINT "render_monthly_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill: every month of render_daily summed, so the monthly roll-up agrees with the daily one from the start.
INSERT INTO "render_monthly" ("environment_id", "month", "kind", "watermarked", "count")
SELECT "environment_id", date_trunc('month', "day")::date, "kind", "watermarked", sum("count")
FROM "render_daily"
GROUP BY 1, 2, 3, 4;
