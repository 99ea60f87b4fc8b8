CREATE TABLE "oidc_example_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"state" text,
	"nonce" text,
	"code_verifier" text,
	"sid" text,
	"id_token" text,
	"claims" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "oidc_example_sessions_sid" ON "oidc_example_sessions" USING btree ("sid");