-- The environment API's content and the connector proxy's configuration announce their writes on the channel of
-- 0003 too, so that each server's caches of them (the read cache of packages/api, the proxy's connector
-- configurations) drop what they hold, on every replica. Tokens, login states and the audit trail stay silent:
-- the proxy writes them on its own path, and nothing cached depends on them.
DO $$
DECLARE
	watched text;
BEGIN
	FOREACH watched IN ARRAY ARRAY['connectors', 'connector_auth', 'connector_shared_headers', 'templates', 'tags',
		'template_tags', 'subject_types', 'media', 'media_subject_types']
	LOOP
		EXECUTE format(
			'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"()',
			watched || '_changes', watched);
	END LOOP;
END;
$$;
