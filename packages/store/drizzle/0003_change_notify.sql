-- Every write to the tables behind the administration API's reads announces itself on the channel
-- `platform_changes`, so that each server's read cache (packages/api) drops what it holds. Statement-level, with
-- one payload: PostgreSQL folds the notifications of a transaction into one, delivered when it commits.
CREATE FUNCTION "platform_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('platform_changes', '');
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "subscriptions" FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"();--> statement-breakpoint
CREATE TRIGGER "external_idp_domains_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "external_idp_domains" FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"();--> statement-breakpoint
CREATE TRIGGER "environments_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "environments" FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"();--> statement-breakpoint
CREATE TRIGGER "memberships_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "memberships" FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"();--> statement-breakpoint
CREATE TRIGGER "environment_roles_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "environment_roles" FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"();--> statement-breakpoint
CREATE TRIGGER "render_daily_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "render_daily" FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"();--> statement-breakpoint
CREATE TRIGGER "render_monthly_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "render_monthly" FOR EACH STATEMENT EXECUTE FUNCTION "platform_notify_change"();
