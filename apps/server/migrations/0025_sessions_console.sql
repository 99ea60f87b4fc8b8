CREATE INDEX "sessions_tenant_live" ON "sessions" USING btree ("tenant_id","expires_at") WHERE revoked_at IS NULL;--> statement-breakpoint
CREATE INDEX "sso_sessions_user_live" ON "sso_sessions" USING btree ("user_id") WHERE ended_at IS NULL;--> statement-breakpoint
CREATE INDEX "sso_sessions_tenant_live" ON "sso_sessions" USING btree ("tenant_id","expires_at") WHERE ended_at IS NULL;--> statement-breakpoint
-- The console's 在线用户 and 登录日志 for every tenant that has the console: after its 审计日志, seen by the same roles.
WITH src AS (
  SELECT m.* FROM "menus" m WHERE m."name" = 'system-audit'
  AND NOT EXISTS (SELECT 1 FROM "menus" x WHERE x."tenant_id" = m."tenant_id" AND x."name" = 'system-online-users')
), ins AS (
  INSERT INTO "menus" ("tenant_id", "application_id", "parent_id", "name", "path", "component", "route", "hidden", "sort", "service_type", "translations", "meta")
  SELECT "tenant_id", "application_id", "parent_id", 'system-online-users', '/system/online-users', 'admin/online-users', '1', false, "sort" + 1, 0,
    '{"en":{"title":"Online users"}}'::jsonb,
    jsonb_build_object('title', '在线用户', 'icon', 'TeamOutlined', 'url', null, 'internalOrExternal', false,
      'keepAlive', false, 'componentName', 'system-online-users', 'pageId', null)
  FROM src RETURNING "id", "tenant_id"
)
INSERT INTO "role_menus" ("role_id", "menu_id")
SELECT rm."role_id", ins."id" FROM ins JOIN src ON src."tenant_id" = ins."tenant_id" JOIN "role_menus" rm ON rm."menu_id" = src."id";
--> statement-breakpoint
WITH src AS (
  SELECT m.* FROM "menus" m WHERE m."name" = 'system-audit'
  AND NOT EXISTS (SELECT 1 FROM "menus" x WHERE x."tenant_id" = m."tenant_id" AND x."name" = 'system-login-history')
), ins AS (
  INSERT INTO "menus" ("tenant_id", "application_id", "parent_id", "name", "path", "component", "route", "hidden", "sort", "service_type", "translations", "meta")
  SELECT "tenant_id", "application_id", "parent_id", 'system-login-history', '/system/login-history', 'admin/login-history', '1', false, "sort" + 2, 0,
    '{"en":{"title":"Login history"}}'::jsonb,
    jsonb_build_object('title', '登录日志', 'icon', 'HistoryOutlined', 'url', null, 'internalOrExternal', false,
      'keepAlive', false, 'componentName', 'system-login-history', 'pageId', null)
  FROM src RETURNING "id", "tenant_id"
)
INSERT INTO "role_menus" ("role_id", "menu_id")
SELECT rm."role_id", ins."id" FROM ins JOIN src ON src."tenant_id" = ins."tenant_id" JOIN "role_menus" rm ON rm."menu_id" = src."id";
