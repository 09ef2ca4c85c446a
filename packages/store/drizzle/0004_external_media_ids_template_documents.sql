-- Template content becomes a JSON document stored as JSON text. Earlier content was any string: an empty one
-- becomes null, one that already is JSON text stays as it is, any other becomes a JSON string.
CREATE FUNCTION "platform_template_document"("content" text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	IF "content" = '' THEN
		RETURN 'null';
	END IF;
	PERFORM "content"::json;
	RETURN "content";
EXCEPTION WHEN others THEN
	RETURN to_json("content")::text;
END;
$$;
--> statement-breakpoint
UPDATE "templates" SET "content" = "platform_template_document"("content");--> statement-breakpoint
DROP FUNCTION "platform_template_document"(text);--> statement-breakpoint
ALTER TABLE "templates" ALTER COLUMN "content" SET DEFAULT 'null';--> statement-breakpoint
-- External media are known by the id their source gives them; those registered earlier keep their uuid as that id.
ALTER TABLE "media" ADD COLUMN "external_id" text;--> statement-breakpoint
UPDATE "media" SET "external_id" = "id"::text WHERE "external";--> statement-breakpoint
CREATE UNIQUE INDEX "media_external_id" ON "media" USING btree ("environment_id","external_id");
