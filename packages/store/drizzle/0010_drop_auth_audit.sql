-- The first releases kept a log of authorization changes of their own (auth_audit: who set or deleted a connector's
-- authorization or shared headers, who deleted a connector). The audit trail records the same changes since it
-- began (0008), so only the entries from before its first one are carried into it; then the old log goes.
INSERT INTO "audit_entries" ("id", "at", "actor_issuer", "actor_subject", "action", "outcome", "target_type", "target_id", "environment", "subscription_id", "source_address", "trace_id", "changes")
SELECT
	gen_random_uuid(),
	a."at",
	'',
	a."actor",
	CASE a."action"
		WHEN 'auth.set' THEN 'connector.auth.set'
		WHEN 'auth.deleted' THEN 'connector.auth.delete'
		WHEN 'sharedHeaders.set' THEN 'connector.sharedHeaders.set'
		ELSE 'connector.delete'
	END,
	'success',
	CASE WHEN a."action" IN ('auth.set', 'auth.deleted') THEN 'connectorAuthorization' ELSE 'connector' END,
	a."connector_id"::text,
	e."technical_name",
	e."subscription_id",
	'',
	'',
	CASE a."action"
		WHEN 'auth.set' THEN jsonb_build_object('usage', jsonb_build_object('to', a."usage"), 'type', jsonb_build_object('to', a."type"))
		WHEN 'auth.deleted' THEN jsonb_build_object('usage', jsonb_build_object('from', a."usage"), 'type', jsonb_build_object('from', a."type"))
		ELSE '{}'::jsonb
	END
FROM "auth_audit" a
LEFT JOIN "environments" e ON e."id" = a."environment_id"
WHERE a."at" < coalesce((SELECT min("at") FROM "audit_entries"), 'infinity'::timestamptz)
ORDER BY a."id";
--> statement-breakpoint
DROP TABLE "auth_audit";
