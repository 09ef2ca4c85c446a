-- The connector's logError messages of each invocation, redacted and each at most 1 KiB (never a secret).
ALTER TABLE "connector_activity" ADD COLUMN "logs" jsonb DEFAULT '[]'::jsonb NOT NULL;
