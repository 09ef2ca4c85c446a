-- What a connector's runs did: one row per invocation, its fetches inside as JSON. Never a secret.
CREATE TABLE "connector_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"connector_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"usage" text NOT NULL,
	"status" integer NOT NULL,
	"code" text,
	"error" text,
	"duration_ms" double precision NOT NULL,
	"fetches" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connector_activity" ADD CONSTRAINT "connector_activity_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connector_activity_connector" ON "connector_activity" USING btree ("connector_id","id");--> statement-breakpoint
-- A republished (or patched, deleted) connector is news to every replica: their caches of its script drop it.
CREATE TRIGGER "connectors_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "connectors" FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"();
