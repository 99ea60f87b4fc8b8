ALTER TABLE "page_definitions" DROP COLUMN "title";--> statement-breakpoint
ALTER TABLE "page_definitions" DROP COLUMN "blocks";--> statement-breakpoint
ALTER TABLE "page_definitions" DROP COLUMN "translations";