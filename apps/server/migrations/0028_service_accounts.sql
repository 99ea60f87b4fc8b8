ALTER TABLE "oidc_clients" ADD COLUMN "service_account" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_clients" ADD COLUMN "service_role_id" bigint;--> statement-breakpoint
ALTER TABLE "oidc_clients" ADD CONSTRAINT "oidc_clients_service_role_id_roles_id_fk" FOREIGN KEY ("service_role_id") REFERENCES "public"."roles"("id") ON DELETE set null ON UPDATE no action;