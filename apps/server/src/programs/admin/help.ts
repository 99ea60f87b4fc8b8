/** The help texts of `npm run admin` (each command's `--help`, and `help`). */
import { RESOURCES } from './routes.js';

const RUN = 'npm run -s admin --';

const GLOBAL = `Options of every command:
  --config FILE      the session file (default ~/.portal-admin.json, or PORTAL_ADMIN_CONFIG)
  --tenant CODE      login: the tenant to sign in to; other commands: the tenant to act on
                     (platform operators only; sent as ?tenant=CODE)
  --lang zh|en       the language of the server's messages (default: the one chosen at login, zh)
  -h, --help         this command's help`;

const EXITS = `Exit codes: 0 done; 1 the server refused (its status and message on stderr); 2 usage error;
3 not logged in or the session ended; 4 the server cannot be reached.`;

function resourceList(): string {
  const width = Math.max(...Object.keys(RESOURCES).map((n) => n.length));
  return Object.entries(RESOURCES)
    .map(([name, r]) => {
      const ops = [
        r.get ? 'get' : '',
        r.create ? 'create' : '',
        r.patch ? 'update <id>' : '',
        r.put ? 'update' : '',
        r.remove ? 'delete <id>' : '',
        ...Object.entries(r.actions ?? {}).map(([a, m]) => `${m === 'GET' ? 'get' : 'create'} ${name}/${a}`),
        r.one ? 'get <id>' : '',
        ...Object.entries(r.subs ?? {}).map(([s, m]) => `${m === 'PUT' ? 'update' : 'create'} <id>/${s}`),
        ...Object.keys(r.reads ?? {}).map((s) => `get <id>/${s}`),
      ].filter(Boolean);
      return `  ${name.padEnd(width)}  ${r.about}\n  ${' '.repeat(width)}  ${ops.join(', ')}`;
    })
    .join('\n');
}

export const HELP: Record<string, string> = {
  main: `Usage: ${RUN} <command> [options]

The portal's operators' API (/api/admin/…) from the command line, modelled on Keycloak's kcadm.

Commands:
  login               sign in and keep the session (in ~/.portal-admin.json)
  logout              end the session
  get <path>          print a resource, a list or one item (JSON, CSV or a table)
  create <path>       POST to a resource (-s key=value …, -f file.json)
  update <path>       change an item (PATCH), or replace settings, agreement or a list (PUT)
  delete <path>       delete an item
  set-password        set a user's password
  add-roles           give a user roles (keeping the ones they have)
  remove-roles        take roles from a user
  review-enterprise   pass or reject a registered enterprise
  export-menus        write the tenant's menu tree to a file (or stdout)
  import-menus        replace the tenant's menu tree with a file's
  bootstrap           first run: the platform tenant and its first operator (on the database itself)
  help [command]      this text, or a command's

Examples:
  ${RUN} login --server http://localhost:8080 --tenant demo --user admin --role park_operator
  ${RUN} get users --fields id,username,roles.name --format table
  ${RUN} create users -s username=jdoe -s name=Jane -s password='S3cret!pw' -s 'roleIds=["2"]'
  ${RUN} add-roles --username jdoe --rolename ent_admin
  ${RUN} export-menus -o menus.json && ${RUN} import-menus -f menus.json
  ${RUN} get notices/7/recipients -q state=replied --fields name,replyContent --format csv

Use 'npm run -s' (or --silent) so that npm's own lines stay out of the output.

${GLOBAL}

${EXITS}`,

  login: `Usage: ${RUN} login --server URL --user NAME [--tenant CODE] [--password PW] [--captcha ANSWER]
                       [--role ROLE] [--public-path /center/]
       ${RUN} login --server URL --tenant CODE --client-id ID --client-secret-file FILE

Signs in as a user (or as a service account, with --client-id) and keeps the session (server, tenant, token, signing secret, expiry) in the
session file, readable by its owner only.

  --server URL        the portal, e.g. http://localhost:8080 (default: the last login's)
  --user NAME         the username (default: the last login's)
  --tenant CODE       the tenant (default: the last login's, else the server's default tenant)
  --password PW       the password; else PORTAL_PASSWORD; else asked without echo
  --captcha ANSWER    the login captcha's answer; without it the image is saved to a temporary file
                      and the answer asked for (a server in test mode, PORTAL_TEST_CAPTCHA=1, takes 8888)
  --role ROLE         switch to this role after signing in: its id, title or code (e.g. park_operator);
                      the operators' API needs a role holding system:manage. An operator is warned
                      here of the tenant's stored names that break the name rule (get users/name-issues)
  --public-path PATH  where the web app (and its config.js) is served (default /center/)
  --new-password PW   for an account whose password someone else set (temporary): its new password;
                      else PORTAL_NEW_PASSWORD; else asked twice without echo. Such an account can do
                      nothing before it has its own password.
  --otp CODE          the authenticator's code (or a recovery code) when the account has a second
                      factor; else PORTAL_OTP; else asked for
  --client-id ID      sign in as the service account of this OpenID client of the tenant (marked
                      服务账户 / Service account in the console, with a role): a client_credentials
                      token with the portal:admin scope from the tenant's token endpoint, sent as
                      Authorization: Bearer; it lives 10 minutes. No password, no factor, no --role
  --client-secret-file FILE
                      the client's secret, read from FILE; else PORTAL_CLIENT_SECRET. Never on the
                      command line (other users of the machine would see it)

${GLOBAL}

${EXITS}`,

  logout: `Usage: ${RUN} logout

Ends the session on the server and forgets its token (the server and username stay for the next
login).

${GLOBAL}`,

  get: `Usage: ${RUN} get <resource>[/<id>[/<sub>]] [-q key=value …] [--fields a,b] [--format json|csv|table] [--all]

Prints what GET /api/admin/<path> answers. A paged list prints its records (the total on stderr
when there are more); <resource>/<id> finds one item in the list (a notice is asked for itself);
notices/<id>/recipients lists who a notice went to and how far each has got.

  -q key=value        a query parameter (page, limit, q, roleId, state, estatus, actor, action, from, to)
  --fields a,b.c      only these fields (dotted names reach inside: roles.name)
  --format FORMAT     json (default), csv or table
  --all               every page of a paged list

Resources:
${resourceList()}

${GLOBAL}

${EXITS}`,

  create: `Usage: ${RUN} create <path> (-s key=value … | -f file.json)

POSTs the body to /api/admin/<path> and prints the new id on stdout (and "Created new … with id"
on stderr). -s values are JSON when they parse as JSON (true, null, ["1","2"], {"a":1}), else text;
dotted keys make objects (-s operator.username=ops). -f reads a JSON object (- for stdin); -s
fields go over it. Passwords (password, operator.password) are given in clear and sent
RSA-encrypted. Names (username, name, nameEn, operator.username, operator.name) are checked
against the name rule before anything is sent (ADR 032: no line breaks, control or invisible
characters; a user name of letters, digits, single spaces and . _ - @ + ·).

  -s key=value        a body field
  -f FILE             the body from a JSON file

Examples:
  create users -s username=jdoe -s name=Jane -s password='S3cret!pw' -s 'roleIds=["2"]'
  create roles -s code=auditor -s title=审计
  create users/42/disable
  create menus/42/move -s parentId=null -s index=0
  create notices -s title=停水通知 -s remark='<p>周五停水</p>' -s replyWay=0 -s audience.kind=tenant
  create notices -f notice.json          (audience: {"kind":"role","ids":[3]}, validityTime, translations.en)
  create notices/7/withdraw              (it leaves every recipient's list at once; it cannot be undone)
  create oidc-clients -f client.json    (prints client_id and, for a confidential client, its secret once)
  create oidc-clients -s name=门户助手 -s confidential=true -s 'grantTypes=["authorization_code","refresh_token"]'
         -s 'redirectUris=["https://app.example.com/cb"]' -s 'scopes=["openid","profile"]'
  create oidc-clients/7/secret           (a new secret, printed once; the old one stops working at once)
  create oidc-clients/7/disable
  create users/42/factors/reset          (removes the user's second factors; told at their next sign-in)

${GLOBAL}

${EXITS}`,

  update: `Usage: ${RUN} update <path> (-s key=value … | -f file.json) [--no-merge]

  <resource>/<id>              PATCH: only the fields given change (users, roles, menus, tenants, …)
  settings, agreement,         PUT of the whole object; the CLI reads it first and changes only the
  security-policy              fields given (-s key=null takes a setting back to the installation's)
                               unless --no-merge (security-policy -s passwordMinLength=12
                               -s passwordHistory=5 -s 'allowedFactors=["totp","webauthn","recovery"]')
  users/<id>/roles             PUT: the list becomes the one given (-s 'roleIds=["1","2"]');
  users/<id>/enterprises       also roles/<id>/permissions (permissionIds)
  users/<id>/password, …       POST, as create

${GLOBAL}

${EXITS}`,

  delete: `Usage: ${RUN} delete <resource>/<id>

Deletes a menu entry (one without sub-entries) or a sign-on service.

${GLOBAL}

${EXITS}`,

  'set-password': `Usage: ${RUN} set-password (--username NAME | --userid ID) [--new-password PW] [--permanent]

Sets a user's password (lifts a lock, ends the user's sessions). Without --new-password, the
password is PORTAL_NEW_PASSWORD or asked without echo. The password is temporary: at their next
sign-in the user must choose their own before anything else, unless --permanent.

${GLOBAL}

${EXITS}`,

  'add-roles': `Usage: ${RUN} add-roles (--username NAME | --userid ID) (--rolename ROLE | --roleid ID) …

Adds roles to the ones a user holds. A --rolename is a role's code or title.

${GLOBAL}

${EXITS}`,

  'remove-roles': `Usage: ${RUN} remove-roles (--username NAME | --userid ID) (--rolename ROLE | --roleid ID) …

Takes roles from a user (sessions acting in one end).

${GLOBAL}

${EXITS}`,

  'review-enterprise': `Usage: ${RUN} review-enterprise (--name NAME | --id ID) (--pass | --reject --reason TEXT)

Passes an enterprise's registration, or rejects it with the reason its members see.

${GLOBAL}

${EXITS}`,

  'export-menus': `Usage: ${RUN} export-menus [-o FILE]

Writes the tenant's menu tree ({format: 1, menus}, roles and applications by code) to FILE, or to
stdout.

${GLOBAL}

${EXITS}`,

  'import-menus': `Usage: ${RUN} import-menus -f FILE

Replaces the tenant's whole menu with an export's tree (- reads stdin), in one transaction; prints
the number of entries written.

${GLOBAL}

${EXITS}`,

  bootstrap: `Usage: ${RUN} bootstrap [--user NAME] [--name TEXT] [--password-file FILE]
                           [--tenant CODE] [--tenant-name TEXT] [--tenant-name-en TEXT]

The first run of an installation without the demo: creates the platform tenant and its first
operator, who administers every tenant. There is no operator to sign in as yet, so this command
works on the server's database itself: run it with the server's environment (DATABASE_URL, or the
embedded database under DATA_DIR; the server may be running or not).

The password is temporary: the first sign-in (portal or "login") asks for the operator's own.
When an operator who can sign in exists, the command says who and changes nothing: it never makes
a second platform tenant and never resets a password.

  --user NAME             the operator's username (default admin)
  --name TEXT             the operator's display name (default 平台管理员)
  --password-file FILE    the password from FILE's one line (- reads stdin); without it the
                          password is asked twice without echo. It must follow the portal's rule:
                          8+ characters with a digit, a lowercase and an uppercase letter and a
                          symbol, without the username or keyboard runs.
  --tenant CODE           the platform tenant's code (default platform)
  --tenant-name TEXT      its name (default 平台运营中心)
  --tenant-name-en TEXT   its English name (default Platform operations)

Exit codes: 0 created; 1 refused (an operator exists, the password rule, a configuration error),
with the reason on stderr; 2 usage error.`,
};
