/** The demo's names in English (ADR 020): data only. */

/** The demo's names in English, by the key each table is looked up by (ADR 020). */
export const DEMO_EN = {
  tenant: 'Demo Park',
  roles: { ent_admin: 'Enterprise administrator', ent_member: 'Enterprise member', park_operator: 'Park operator' },
  applications: {
    ENT_SERVICE: 'Enterprise services',
    ENT_WORKBENCH: 'Enterprise workbench',
    PARK_OPS: 'Park operations platform',
  },
  workbenches: { WB_ENT: 'Enterprise workbench', WB_PARK: 'Park workbench' },
  users: { admin: 'System Administrator', member: 'Zhang Min' },
  /** The sign-on server's services, by name (the portal's own is every tenant's: provisioning). */
  services: { '园区物业服务（示例外部系统）': 'Park property services (example external system)' } as Record<
    string,
    string
  >,
  enterprises: {
    星河科技有限公司: 'Xinghe Technology Co., Ltd.',
    蓝海智能制造有限公司: 'Lanhai Intelligent Manufacturing Co., Ltd.',
    青松物流有限公司: 'Qingsong Logistics Co., Ltd.',
    启明生物医药有限公司: 'Qiming Biomedicine Co., Ltd.',
    远航新能源科技有限公司: 'Yuanhang New Energy Technology Co., Ltd.',
    云帆数据服务有限公司: 'Yunfan Data Services Co., Ltd.',
    恒信精密机械有限公司: 'Hengxin Precision Machinery Co., Ltd.',
    锦程文化传媒有限公司: 'Jincheng Culture & Media Co., Ltd.',
    华芯微电子有限公司: 'Huaxin Microelectronics Co., Ltd.',
    绿源环保科技有限公司: 'Lvyuan Environmental Technology Co., Ltd.',
    博远检测认证有限公司: 'Boyuan Testing & Certification Co., Ltd.',
    天工智能装备有限公司: 'Tiangong Intelligent Equipment Co., Ltd.',
    悦享餐饮管理有限公司: 'Yuexiang Catering Management Co., Ltd.',
  } as Record<string, string>,
};
