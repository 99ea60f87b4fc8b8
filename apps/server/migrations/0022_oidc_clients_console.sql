-- The console's OIDC 客户端 for every tenant that has the console: beside its 单点登录, seen by the same roles.
WITH src AS (
  SELECT m.* FROM "menus" m WHERE m."name" = 'system-sign-on'
  AND NOT EXISTS (SELECT 1 FROM "menus" x WHERE x."tenant_id" = m."tenant_id" AND x."name" = 'system-oidc-clients')
), ins AS (
  INSERT INTO "menus" ("tenant_id", "application_id", "parent_id", "name", "path", "component", "route", "hidden", "sort", "service_type", "translations", "meta")
  SELECT "tenant_id", "application_id", "parent_id", 'system-oidc-clients', '/system/oidc-clients', 'admin/oidc-clients', '1', false, "sort", 0,
    '{"en":{"title":"OIDC clients"}}'::jsonb,
    jsonb_build_object('title', 'OIDC 客户端', 'icon', 'KeyOutlined', 'url', null, 'internalOrExternal', false,
      'keepAlive', false, 'componentName', 'system-oidc-clients', 'pageId', null)
  FROM src RETURNING "id", "tenant_id"
)
INSERT INTO "role_menus" ("role_id", "menu_id")
SELECT rm."role_id", ins."id" FROM ins JOIN src ON src."tenant_id" = ins."tenant_id" JOIN "role_menus" rm ON rm."menu_id" = src."id";
