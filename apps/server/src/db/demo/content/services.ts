/** The demo's services: the example external system, the sub-application and its data. */
import * as s from '../../schema.js';

/**
 * The example external system (modules/example-system) as a service of the sign-on server: its
 * sysCode enters it from the portal, and single logout reaches it at its own address.
 */
export const EXAMPLE_SYSTEM = {
  name: '园区物业服务（示例外部系统）',
  pattern: `${s.SERVER_PATTERN}/example-system/`,
  sysCode: 'PROPERTY',
};

/**
 * The demo's sub-application (apps/demo-micro-app, served by the portal at modules/web's
 * DEMO_SUB_APP_PATH) and its framed services.
 */
export const DEMO_APPS = [
  { code: 'park-services', name: '园区服务', en: 'Park services', entry: '/micro/park-services/', serviceType: 0 },
  { code: 'park-hall', name: '园区大厅', en: 'Park hall', entry: 'https://park.example.com/', serviceType: 1 },
  { code: 'cloud-orders', name: '云服务订单', en: 'Cloud orders', entry: 'https://cloud.example.com/', serviceType: 1 },
];

/** The meeting rooms of 会议室预约. */
export const DEMO_ROOMS = [
  { name: '一号会议室', en: 'Meeting room 1', capacity: 12 },
  { name: '二号会议室', en: 'Meeting room 2', capacity: 8 },
  { name: '路演厅', en: 'Roadshow hall', capacity: 60 },
];

/** The demo member's repair requests, so that 物业报修 shows some at first start, with their English. */
export const DEMO_REPAIRS = [
  {
    title: '会议室投影仪无法开机',
    location: 'A栋 3楼 301',
    description: '按电源键无反应，已检查插座。',
    status: 1,
    en: {
      title: 'The meeting room projector does not turn on',
      location: 'Building A, floor 3, room 301',
      description: 'Nothing happens when the power button is pressed; the socket has been checked.',
    },
  },
  {
    title: '卫生间水龙头漏水',
    location: 'B栋 2楼 东侧',
    description: '',
    status: 0,
    en: { title: 'The washroom tap is leaking', location: 'Building B, floor 2, east side', description: '' },
  },
];

/**
 * The demo's OpenID Connect example system (modules/oidc-example): a confidential client of the
 * demo tenant's OpenID Provider, first-party (no consent question). Its addresses are written
 * under `{SERVER}` and read as PUBLIC_URL when the server starts with the demo (the provider
 * compares addresses exactly, so they follow the address the server has now); its secret is a
 * server secret, made on the seed's first run.
 */
export const OIDC_EXAMPLE = {
  tenantCode: 'demo',
  clientId: 'demo-oidc-example',
  name: '园区访客服务（OpenID Connect 示例）',
  en: 'Park visitor services (OpenID Connect example)',
  path: '/oidc-example/',
  secretName: 'oidc_example_client_secret',
  scopes: ['openid', 'profile', 'roles', 'enterprise'],
};
