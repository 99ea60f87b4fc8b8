/** The demo's enterprises: data only. */

/** The enterprises the demo's users have joined, in every estatus. */
export const DEMO_ENTERPRISES = [
  {
    name: '星河科技有限公司',
    creditCode: '91310000MA1FL0XK3A',
    industryCode: '6513',
    regionCode: '310115',
    estatus: 1,
  },
  {
    name: '蓝海智能制造有限公司',
    creditCode: '91320500MA1MX2QW7B',
    industryCode: '3911',
    regionCode: '320505',
    estatus: 0,
  },
  {
    name: '青松物流有限公司',
    creditCode: '91330100MA2H8YBN5C',
    industryCode: '59',
    regionCode: '330106',
    estatus: 2,
  },
];

export const PARK_ENTERPRISES = [
  '启明生物医药有限公司',
  '远航新能源科技有限公司',
  '云帆数据服务有限公司',
  '恒信精密机械有限公司',
  '锦程文化传媒有限公司',
  '华芯微电子有限公司',
  '绿源环保科技有限公司',
  '博远检测认证有限公司',
  '天工智能装备有限公司',
  '悦享餐饮管理有限公司',
];
