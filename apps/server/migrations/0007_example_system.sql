CREATE TABLE "example_system_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"ticket" text NOT NULL,
	"tenant_code" text NOT NULL,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "example_system_sessions_ticket" ON "example_system_sessions" USING btree ("ticket");