CREATE TABLE "captcha_challenges" (
	"token" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"answer" jsonb NOT NULL,
	"secret_key" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "captcha_verifications" (
	"value" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_locks" (
	"key" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL
);
