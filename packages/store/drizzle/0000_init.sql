CREATE SEQUENCE "public"."connector_auth_revision" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "environment_roles" (
	"environment_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"roles" text[] NOT NULL,
	CONSTRAINT "environment_roles_environment_id_user_id_pk" PRIMARY KEY("environment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "environments" (
	"id" integer PRIMARY KEY NOT NULL,
	"guid" uuid NOT NULL,
	"subscription_id" integer NOT NULL,
	"name" text NOT NULL,
	"technical_name" text,
	"default_name" text,
	"type" text NOT NULL,
	"region" text,
	"tenant_name" text,
	"back_office_uri" text,
	"disable_cpo_to_platform_redirect" boolean DEFAULT false NOT NULL,
	"storage_assets" bigint DEFAULT 0 NOT NULL,
	"storage_documents" bigint DEFAULT 0 NOT NULL,
	"storage_fonts" bigint DEFAULT 0 NOT NULL,
	"storage_cache" bigint DEFAULT 0 NOT NULL,
	"storage_backup" bigint DEFAULT 0 NOT NULL,
	"storage_other" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "environments_guid_unique" UNIQUE("guid")
);
--> statement-breakpoint
CREATE TABLE "external_idp_domains" (
	"subscription_id" integer NOT NULL,
	"domain" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "external_idp_domains_subscription_id_domain_pk" PRIMARY KEY("subscription_id","domain")
);
--> statement-breakpoint
CREATE TABLE "imported_render_events" (
	"environment_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"watermarked" boolean NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "imported_render_events_environment_id_at_kind_watermarked_pk" PRIMARY KEY("environment_id","at","kind","watermarked")
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"subscription_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"subscription_roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"membership_type" text DEFAULT 'Invitation' NOT NULL,
	CONSTRAINT "memberships_subscription_id_user_id_pk" PRIMARY KEY("subscription_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "render_daily" (
	"environment_id" integer NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"watermarked" boolean NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "render_daily_environment_id_day_kind_watermarked_pk" PRIMARY KEY("environment_id","day","kind","watermarked")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" integer PRIMARY KEY NOT NULL,
	"guid" uuid NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"client_id" uuid NOT NULL,
	"client_name" text,
	"status" text NOT NULL,
	"subscription_type" text NOT NULL,
	"is_platform_pricebook" boolean NOT NULL,
	"pricebook_version" text NOT NULL,
	"is_whitelabeled" boolean NOT NULL,
	"subscription_tier" text NOT NULL,
	"max_templates" integer NOT NULL,
	"max_renders" bigint,
	"max_storage" bigint,
	"average_renders_period_days" integer NOT NULL,
	"start_date" text,
	"end_date" text,
	"billing_client_contact" text,
	"template_designer_seats_total" integer,
	"overdue_invoices" boolean NOT NULL,
	"is_publisher_enabled" boolean NOT NULL,
	"is_studio_enabled" boolean NOT NULL,
	"is_experience_enabled" boolean,
	"max_spaces" integer,
	"is_partner_enabled" boolean,
	"sandbox_environments_total" bigint,
	"production_environments_total" bigint,
	"licenses_json" text,
	CONSTRAINT "subscriptions_guid_unique" UNIQUE("guid")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"avatar" text,
	"last_seen" bigint,
	"status" text DEFAULT 'Active' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor" text NOT NULL,
	"environment_id" integer NOT NULL,
	"connector_id" uuid NOT NULL,
	"action" text NOT NULL,
	"usage" text,
	"type" text
);
--> statement-breakpoint
CREATE TABLE "connector_auth" (
	"id" uuid PRIMARY KEY NOT NULL,
	"connector_id" uuid NOT NULL,
	"usage" text NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"revision" bigint NOT NULL,
	"public_data" jsonb NOT NULL,
	"secret_data" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connector_shared_headers" (
	"connector_id" uuid PRIMARY KEY NOT NULL,
	"headers" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connector_tokens" (
	"connector_id" uuid NOT NULL,
	"usage" text NOT NULL,
	"revision" bigint NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"access_token" text NOT NULL,
	"refresh_token" text,
	"token_type" text DEFAULT 'Bearer' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "connector_tokens_connector_id_usage_revision_user_id_pk" PRIMARY KEY("connector_id","usage","revision","user_id")
);
--> statement-breakpoint
CREATE TABLE "connectors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"version" text NOT NULL,
	"type" text NOT NULL,
	"icon_url" text,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"script" text NOT NULL,
	"api_version" text,
	"allowed_domains" text[] NOT NULL,
	"forwarded_headers" boolean DEFAULT false NOT NULL,
	"supported_auth" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"external" boolean NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_subject_types" (
	"media_id" uuid NOT NULL,
	"subject_type_id" uuid NOT NULL,
	"assigned" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "media_subject_types_media_id_subject_type_id_pk" PRIMARY KEY("media_id","subject_type_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_login_states" (
	"state" text PRIMARY KEY NOT NULL,
	"connector_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"revision" bigint NOT NULL,
	"code_verifier" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subject_types" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_tags" (
	"template_id" uuid NOT NULL,
	"tag_id" uuid NOT NULL,
	CONSTRAINT "template_tags_template_id_tag_id_pk" PRIMARY KEY("template_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"name" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"content_modified_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environment_roles" ADD CONSTRAINT "environment_roles_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environment_roles" ADD CONSTRAINT "environment_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_idp_domains" ADD CONSTRAINT "external_idp_domains_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imported_render_events" ADD CONSTRAINT "imported_render_events_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "render_daily" ADD CONSTRAINT "render_daily_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_auth" ADD CONSTRAINT "connector_auth_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_shared_headers" ADD CONSTRAINT "connector_shared_headers_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_tokens" ADD CONSTRAINT "connector_tokens_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_subject_types" ADD CONSTRAINT "media_subject_types_media_id_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."media"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_subject_types" ADD CONSTRAINT "media_subject_types_subject_type_id_subject_types_id_fk" FOREIGN KEY ("subject_type_id") REFERENCES "public"."subject_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_login_states" ADD CONSTRAINT "oauth_login_states_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_types" ADD CONSTRAINT "subject_types_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_tags" ADD CONSTRAINT "template_tags_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_tags" ADD CONSTRAINT "template_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "environment_roles_user" ON "environment_roles" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "environments_technical_name_lower" ON "environments" USING btree (lower("technical_name"));--> statement-breakpoint
CREATE INDEX "environments_subscription" ON "environments" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "memberships_user" ON "memberships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_audit_connector" ON "auth_audit" USING btree ("connector_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connector_auth_usage" ON "connector_auth" USING btree ("connector_id","usage");--> statement-breakpoint
CREATE INDEX "connectors_environment" ON "connectors" USING btree ("environment_id");--> statement-breakpoint
CREATE INDEX "media_environment" ON "media" USING btree ("environment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subject_types_environment_name" ON "subject_types" USING btree ("environment_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_environment_name" ON "tags" USING btree ("environment_id",lower("name"));--> statement-breakpoint
CREATE INDEX "template_tags_tag" ON "template_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "templates_environment_name" ON "templates" USING btree ("environment_id","name","id");