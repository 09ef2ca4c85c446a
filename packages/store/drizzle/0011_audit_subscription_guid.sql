DROP INDEX "audit_entries_subscription";--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "subscription_guid" uuid;--> statement-breakpoint
-- Entries written before: the guid of the subscription that holds their integer id now, the best that is known.
-- The append-only trigger is set aside for this one statement, within the migration's transaction.
ALTER TABLE "audit_entries" DISABLE TRIGGER "audit_entries_append_only";--> statement-breakpoint
UPDATE "audit_entries" SET "subscription_guid" = "subscriptions"."guid" FROM "subscriptions" WHERE "subscriptions"."id" = "audit_entries"."subscription_id";--> statement-breakpoint
ALTER TABLE "audit_entries" ENABLE TRIGGER "audit_entries_append_only";--> statement-breakpoint
CREATE INDEX "audit_entries_subscription" ON "audit_entries" USING btree ("subscription_guid","at" DESC NULLS LAST,"id" DESC NULLS LAST);