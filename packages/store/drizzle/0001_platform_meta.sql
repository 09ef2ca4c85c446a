CREATE TABLE "platform_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
