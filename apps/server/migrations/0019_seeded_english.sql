ALTER TABLE "park_repairs" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_services" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Every tenant's entry for the portal itself, as provisioning writes it now (ADR 020).
UPDATE "sso_services" SET "translations" = '{"en":{"name":"Enterprise Service Portal"}}'::jsonb WHERE "name" = '企业服务门户' AND "pattern" = '{PORTAL}';
