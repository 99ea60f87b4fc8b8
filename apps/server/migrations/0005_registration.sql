CREATE TABLE "industries" (
	"code" text PRIMARY KEY NOT NULL,
	"parent_code" text,
	"name" text NOT NULL,
	"level" smallint NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "register_agreements" (
	"tenant_id" bigint PRIMARY KEY NOT NULL,
	"html" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_tenant_username";--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "contacts" text;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "position" text;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_agreements" ADD CONSTRAINT "register_agreements_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "industries_parent" ON "industries" USING btree ("parent_code","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "enterprises_tenant_name" ON "enterprises" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_tenant_default" ON "roles" USING btree ("tenant_id") WHERE is_default;--> statement-breakpoint
CREATE UNIQUE INDEX "users_tenant_mobile" ON "users" USING btree ("tenant_id","mobile") WHERE mobile IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_tenant_username" ON "users" USING btree ("tenant_id",lower("username"));