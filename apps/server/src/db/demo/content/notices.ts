/** The demo's notices, their English and their attachments: data only. */

/** The park's notices to its users, one for each way of answering (replyWay). */
export const DEMO_NOTICES = [
  {
    title: '关于开展2026年度企业安全生产检查的通知',
    remark: '<p>请各入驻企业于<strong>12月15日</strong>前完成自查并确认。</p>',
    replyWay: 0,
  },
  {
    title: '园区停电检修通知',
    remark: '<p>本周六 8:00–12:00 园区A区停电检修，请提前做好准备。</p>',
    replyWay: 1,
  },
  { title: '高新技术企业认定材料征集', remark: '<p>请符合条件的企业上传申报材料。</p>', replyWay: 2 },
  { title: '园区食堂菜单调整', remark: '<p>自下周起食堂新增晚餐供应。</p>', replyWay: 0 },
];

/** The demo notices in English, by their Chinese title. */
export const DEMO_NOTICES_EN: Record<string, { title: string; remark: string }> = {
  关于开展2026年度企业安全生产检查的通知: {
    title: 'Work-safety inspection of all enterprises, 2026',
    remark:
      '<p>Every resident enterprise: please complete your self-check and confirm by <strong>December 15</strong>.</p>',
  },
  园区停电检修通知: {
    title: 'Power maintenance in the park',
    remark: '<p>Zone A has no power this Saturday from 8:00 to 12:00 for maintenance; please prepare.</p>',
  },
  高新技术企业认定材料征集: {
    title: 'High-tech enterprise recognition: documents wanted',
    remark: '<p>Enterprises that qualify: please upload your application documents.</p>',
  },
  园区食堂菜单调整: {
    title: 'New canteen menu',
    remark: '<p>From next week the canteen also serves dinner.</p>',
  },
};

/** The demo notices' attachments, by the notice's Chinese title: a file name and its text. */
export const DEMO_FILES: Record<string, { fileName: string; text: string }> = {
  关于开展2026年度企业安全生产检查的通知: {
    fileName: '2026年度企业安全生产自查表.txt',
    text: '2026年度企业安全生产自查表\n\n一、消防设施：灭火器、消防栓、应急照明是否完好。\n二、用电安全：线路是否老化，是否私拉乱接。\n三、安全通道：是否畅通，标识是否清晰。\n\n自查人：__________  日期：__________\n',
  },
  高新技术企业认定材料征集: {
    fileName: '高新技术企业申报材料清单.txt',
    text: '高新技术企业申报材料清单\n\n1. 企业营业执照副本\n2. 知识产权证明材料\n3. 近三年研发费用明细\n4. 高新技术产品（服务）收入说明\n',
  },
};
