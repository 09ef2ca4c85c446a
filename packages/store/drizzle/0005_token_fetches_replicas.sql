-- Token fetches coordinated across replicas without holding a connection while a token endpoint answers: a lease
-- per token cache key, a failure remembered for a few seconds, and the earliest time another 401-driven renewal
-- may run. Waiters learn of the outcome on the channel `connector_token_fetches` (payload: the key).
CREATE TABLE "connector_token_fetches" (
	"key" text PRIMARY KEY NOT NULL,
	"connector_id" uuid NOT NULL,
	"leased_until" timestamp with time zone,
	"failed_until" timestamp with time zone,
	"failure_code" text,
	"failure_message" text,
	"renew_after" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "connector_token_fetches" ADD CONSTRAINT "connector_token_fetches_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Live replicas, for the platform-wide rate limit: each refreshes `seen_at` every few seconds.
CREATE TABLE "platform_replicas" (
	"id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
