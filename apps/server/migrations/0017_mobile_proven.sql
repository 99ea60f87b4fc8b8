ALTER TABLE "password_resets" ADD COLUMN "mobile" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "verified_mobile" text;