CREATE TABLE "page_versions" (
	"page_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"document" jsonb NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"restored_from" integer,
	CONSTRAINT "page_versions_page_id_version_pk" PRIMARY KEY("page_id","version")
);
--> statement-breakpoint
CREATE TABLE "workbench_layouts" (
	"tenant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"layout" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workbench_layouts_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "page_definitions" ADD COLUMN "published_version" integer;--> statement-breakpoint
ALTER TABLE "page_versions" ADD CONSTRAINT "page_versions_page_id_page_definitions_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."page_definitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_versions" ADD CONSTRAINT "page_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_layouts" ADD CONSTRAINT "workbench_layouts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_layouts" ADD CONSTRAINT "workbench_layouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Pages saved before the builder (blocks, English in translations) become their version 1, published:
-- each block a full-width widget, in order; each text with its English beside it. A title or unit the
-- English page left out stays out of the English (an empty English text); the paths are the Chinese
-- page's.
CREATE FUNCTION pg_temp.local_text(zh text, en text) RETURNS jsonb LANGUAGE sql AS $$
  SELECT CASE WHEN zh IS NULL THEN NULL ELSE jsonb_strip_nulls(jsonb_build_object('zh', zh, 'en', en)) END
$$;--> statement-breakpoint
-- The English of a text whose English block is `en`: its own, else empty when there is an English block.
CREATE FUNCTION pg_temp.english(en jsonb, field text) RETURNS text LANGUAGE sql AS $$
  SELECT CASE WHEN en IS NULL THEN NULL ELSE coalesce(en->>field, '') END
$$;--> statement-breakpoint
CREATE FUNCTION pg_temp.block_items(kind text, items jsonb, en jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT COALESCE(jsonb_agg(CASE kind
      WHEN 'stats' THEN jsonb_build_object('label', pg_temp.local_text(i->>'label', e->>'label'), 'value', i->>'value',
        'suffix', pg_temp.local_text(i->>'suffix', pg_temp.english(e, 'suffix')))
      ELSE jsonb_build_object('title', pg_temp.local_text(i->>'title', e->>'title'), 'path', i->>'path')
    END ORDER BY n), '[]'::jsonb)
  FROM (SELECT i, n, en->((n - 1)::int) AS e FROM jsonb_array_elements(items) WITH ORDINALITY AS x(i, n)) z
$$;--> statement-breakpoint
INSERT INTO "page_versions" ("page_id", "version", "document", "created_at")
SELECT p.id, 1, jsonb_build_object(
  'format', 1,
  'title', pg_temp.local_text(p.title, p.translations->'en'->>'title'),
  'widgets', COALESCE((
    SELECT jsonb_agg(jsonb_build_object(
      'id', 'w' || b.n, 'x', 0, 'y', (b.n - 1) * 4, 'w', 12, 'h', 4, 'kind', b.block->>'type',
      'props', jsonb_strip_nulls(CASE b.block->>'type'
        WHEN 'text' THEN jsonb_build_object('title', pg_temp.local_text(b.block->>'title', pg_temp.english(b.en, 'title')),
          'text', pg_temp.local_text(b.block->>'text', b.en->>'text'))
        ELSE jsonb_build_object('title', pg_temp.local_text(b.block->>'title', pg_temp.english(b.en, 'title')),
          'items', pg_temp.block_items(b.block->>'type', b.block->'items', b.en->'items'))
      END)) ORDER BY b.n)
    FROM (SELECT block, n, p.translations->'en'->'blocks'->((n - 1)::int) AS en
          FROM jsonb_array_elements(p.blocks) WITH ORDINALITY AS x(block, n)) b), '[]'::jsonb)
), p.updated_at
FROM "page_definitions" p;--> statement-breakpoint
UPDATE "page_definitions" SET "published_version" = 1;
