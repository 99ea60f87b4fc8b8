ALTER TABLE "notices" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "withdrawn_by" bigint;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_withdrawn_by_users_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The bell (messageIndex) for the roles that publish notices: they receive them too, and were never given it.
INSERT INTO "role_permissions" ("role_id", "permission_id")
SELECT rp."role_id", m."id" FROM "role_permissions" rp
JOIN "permissions" p ON p."id" = rp."permission_id" AND p."code" = 'notice:publish'
JOIN "roles" r ON r."id" = rp."role_id"
JOIN "permissions" m ON m."tenant_id" = r."tenant_id" AND m."code" = 'messageIndex'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The console's 通知公告 for every tenant that has the console: beside its 企业审核, seen by the same roles.
WITH src AS (
  SELECT m.* FROM "menus" m WHERE m."name" = 'system-enterprises'
  AND NOT EXISTS (SELECT 1 FROM "menus" x WHERE x."tenant_id" = m."tenant_id" AND x."name" = 'system-notices')
), ins AS (
  INSERT INTO "menus" ("tenant_id", "application_id", "parent_id", "name", "path", "component", "route", "hidden", "sort", "service_type", "translations", "meta")
  SELECT "tenant_id", "application_id", "parent_id", 'system-notices', '/system/notices', 'admin/notices', '1', false, "sort", 0,
    '{"en":{"title":"Notices"}}'::jsonb,
    jsonb_build_object('title', '通知公告', 'icon', 'NotificationOutlined', 'url', null, 'internalOrExternal', false,
      'keepAlive', false, 'componentName', 'system-notices', 'pageId', null)
  FROM src RETURNING "id", "tenant_id"
)
INSERT INTO "role_menus" ("role_id", "menu_id")
SELECT rm."role_id", ins."id" FROM ins JOIN src ON src."tenant_id" = ins."tenant_id" JOIN "role_menus" rm ON rm."menu_id" = src."id";
