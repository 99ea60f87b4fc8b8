/** The demo's accounts: data only. Production reads them too, to refuse a start while they sign in with the published password. */

/** The platform tenant of the demo, and its operator `platform`, who administers every tenant. */
export const DEMO_PLATFORM = { code: 'platform', name: '平台运营中心', nameEn: 'Platform operations' };

/** The accounts the demo makes, by tenant code and username, all with the demo's password. */
export const DEMO_ACCOUNTS = [
  { tenant: 'demo', username: 'admin' },
  { tenant: 'demo', username: 'member' },
  { tenant: DEMO_PLATFORM.code, username: 'platform' },
] as const;
