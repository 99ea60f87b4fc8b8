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

/**
 * Who each demo enterprise named as its contact and their position at registration, in Chinese and
 * English: the review queue's 联系人 and the application's detail.
 */
export const DEMO_CONTACTS: Record<
  string,
  { contacts: string; position: string; en: { contacts: string; position: string } }
> = {
  星河科技有限公司: {
    contacts: '林晓',
    position: '行政经理',
    en: { contacts: 'Lin Xiao', position: 'Office manager' },
  },
  蓝海智能制造有限公司: {
    contacts: '周建华',
    position: '总经理',
    en: { contacts: 'Zhou Jianhua', position: 'General manager' },
  },
  青松物流有限公司: {
    contacts: '陈静',
    position: '运营主管',
    en: { contacts: 'Chen Jing', position: 'Operations supervisor' },
  },
  启明生物医药有限公司: {
    contacts: '王磊',
    position: '研发总监',
    en: { contacts: 'Wang Lei', position: 'R&D director' },
  },
  远航新能源科技有限公司: {
    contacts: '赵敏',
    position: '财务经理',
    en: { contacts: 'Zhao Min', position: 'Finance manager' },
  },
  云帆数据服务有限公司: {
    contacts: '孙浩',
    position: '技术负责人',
    en: { contacts: 'Sun Hao', position: 'Head of technology' },
  },
  恒信精密机械有限公司: {
    contacts: '李强',
    position: '生产经理',
    en: { contacts: 'Li Qiang', position: 'Production manager' },
  },
  锦程文化传媒有限公司: {
    contacts: '吴婷',
    position: '市场总监',
    en: { contacts: 'Wu Ting', position: 'Marketing director' },
  },
  华芯微电子有限公司: {
    contacts: '郑伟',
    position: '总经理',
    en: { contacts: 'Zheng Wei', position: 'General manager' },
  },
  绿源环保科技有限公司: {
    contacts: '何芳',
    position: '行政主管',
    en: { contacts: 'He Fang', position: 'Office supervisor' },
  },
  博远检测认证有限公司: {
    contacts: '马俊',
    position: '质量经理',
    en: { contacts: 'Ma Jun', position: 'Quality manager' },
  },
  天工智能装备有限公司: {
    contacts: '高峰',
    position: '副总经理',
    en: { contacts: 'Gao Feng', position: 'Deputy general manager' },
  },
  悦享餐饮管理有限公司: { contacts: '许丽', position: '店长', en: { contacts: 'Xu Li', position: 'Store manager' } },
};
