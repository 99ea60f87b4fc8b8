CREATE TABLE "sso_services" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sso_services_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" bigint NOT NULL,
	"name" text NOT NULL,
	"pattern" text NOT NULL,
	"sys_code" text,
	"entry_url" text,
	"logout_url" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cookie_hash" text NOT NULL,
	"tenant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "sso_sessions_cookie_hash_unique" UNIQUE("cookie_hash")
);
--> statement-breakpoint
CREATE TABLE "sso_tickets" (
	"ticket" text PRIMARY KEY NOT NULL,
	"sso_session_id" uuid NOT NULL,
	"service_id" bigint NOT NULL,
	"service" text NOT NULL,
	"from_new_login" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"validated_at" timestamp with time zone,
	"validated" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "service_ticket" text;--> statement-breakpoint
ALTER TABLE "sso_services" ADD CONSTRAINT "sso_services_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_sessions" ADD CONSTRAINT "sso_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_sessions" ADD CONSTRAINT "sso_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_tickets" ADD CONSTRAINT "sso_tickets_sso_session_id_sso_sessions_id_fk" FOREIGN KEY ("sso_session_id") REFERENCES "public"."sso_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_tickets" ADD CONSTRAINT "sso_tickets_service_id_sso_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."sso_services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_services_tenant_sys_code" ON "sso_services" USING btree ("tenant_id","sys_code");--> statement-breakpoint
CREATE INDEX "sso_tickets_session" ON "sso_tickets" USING btree ("sso_session_id");--> statement-breakpoint
CREATE INDEX "sessions_service_ticket" ON "sessions" USING btree ("service_ticket");--> statement-breakpoint
-- Every existing tenant's portal is a service of the sign-on server (new tenants get it when created).
INSERT INTO "sso_services" ("tenant_id", "name", "pattern", "logout_url") SELECT "id", '企业服务门户', '{PORTAL}', '{PORTAL_SLO}' FROM "tenants";
