CREATE TABLE "oidc_clients" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "oidc_clients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"confidential" boolean NOT NULL,
	"secret_hash" text,
	"secret_set_at" timestamp with time zone,
	"grant_types" text[] NOT NULL,
	"redirect_uris" text[] DEFAULT '{}'::text[] NOT NULL,
	"post_logout_redirect_uris" text[] DEFAULT '{}'::text[] NOT NULL,
	"backchannel_logout_uri" text,
	"scopes" text[] NOT NULL,
	"first_party" boolean DEFAULT false NOT NULL,
	"id_token_alg" text DEFAULT 'ES256' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oidc_clients_client_id_unique" UNIQUE("client_id")
);
--> statement-breakpoint
CREATE TABLE "oidc_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "oidc_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"kid" text NOT NULL,
	"alg" text NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone,
	"retired_at" timestamp with time zone,
	CONSTRAINT "oidc_keys_kid_unique" UNIQUE("kid")
);
--> statement-breakpoint
CREATE TABLE "oidc_payloads" (
	"tenant_id" bigint NOT NULL,
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"sso_session_id" uuid,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_payloads_tenant_id_model_id_pk" PRIMARY KEY("tenant_id","model","id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "subject" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_clients" ADD CONSTRAINT "oidc_clients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_keys" ADD CONSTRAINT "oidc_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_payloads" ADD CONSTRAINT "oidc_payloads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_payloads" ADD CONSTRAINT "oidc_payloads_sso_session_id_sso_sessions_id_fk" FOREIGN KEY ("sso_session_id") REFERENCES "public"."sso_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oidc_clients_tenant" ON "oidc_clients" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "oidc_keys_tenant" ON "oidc_keys" USING btree ("tenant_id","state");--> statement-breakpoint
CREATE INDEX "oidc_payloads_grant" ON "oidc_payloads" USING btree ("tenant_id","grant_id") WHERE grant_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "oidc_payloads_user_code" ON "oidc_payloads" USING btree ("tenant_id","model","user_code") WHERE user_code IS NOT NULL;--> statement-breakpoint
CREATE INDEX "oidc_payloads_uid" ON "oidc_payloads" USING btree ("tenant_id","model","uid") WHERE uid IS NOT NULL;--> statement-breakpoint
CREATE INDEX "oidc_payloads_sso_session" ON "oidc_payloads" USING btree ("sso_session_id") WHERE sso_session_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "oidc_payloads_expires" ON "oidc_payloads" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_subject_unique" UNIQUE("subject");