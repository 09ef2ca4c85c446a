-- The audit trail (docs/audit.md): one row per change, written in the transaction of the change.
CREATE TABLE "audit_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_issuer" text NOT NULL,
	"actor_subject" text NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"environment" text,
	"subscription_id" integer,
	"source_address" text NOT NULL,
	"trace_id" text NOT NULL,
	"changes" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_entries_at" ON "audit_entries" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_entries_subscription" ON "audit_entries" USING btree ("subscription_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_entries_environment" ON "audit_entries" USING btree (lower("environment"),"at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_entries_actor" ON "audit_entries" USING btree ("actor_subject","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_entries_action" ON "audit_entries" USING btree ("action","at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
-- Append-only: no UPDATE, no TRUNCATE, and no DELETE but the retention sweep's, which names in
-- `platform.audit_sweep_before` (set for its own transaction) the time before which entries may go.
CREATE FUNCTION "platform_audit_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	cutoff text := current_setting('platform.audit_sweep_before', true);
BEGIN
	IF TG_OP = 'DELETE' AND cutoff IS NOT NULL AND cutoff <> '' THEN
		IF OLD.at < cutoff::timestamptz THEN
			RETURN OLD;
		END IF;
	END IF;
	RAISE EXCEPTION 'audit entries are append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_entries_append_only" BEFORE UPDATE OR DELETE ON "audit_entries" FOR EACH ROW EXECUTE FUNCTION "platform_audit_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "audit_entries_no_truncate" BEFORE TRUNCATE ON "audit_entries" FOR EACH STATEMENT EXECUTE FUNCTION "platform_audit_refuse_change"();
