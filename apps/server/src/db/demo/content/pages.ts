/**
 * The demo's drag pages): each a PageDocument, seeded as its version 1, published.
 * Texts carry their English beside them (LocalText).
 */
import type { LocalText, PageDocument, Widget } from '@portal/contracts';

const t = (zh: string, en: string): LocalText => ({ zh, en });
/** Full-width widgets one under the other, each `h` rows high. */
function stacked(widgets: (Omit<Widget, 'id' | 'x' | 'y' | 'w'> & { w?: number })[]): Widget[] {
  let y = 0;
  return widgets.map((widget, n) => {
    const placed = { id: `w${n + 1}`, x: 0, y, w: 12, ...widget } as Widget;
    y += widget.h;
    return placed;
  });
}

export const DEMO_PAGES: { code: string; document: PageDocument }[] = [
  {
    code: 'ent-dashboard',
    document: {
      format: 1,
      title: t('企业看板', 'Enterprise dashboard'),
      widgets: stacked([
        {
          kind: 'stats',
          h: 3,
          props: {
            // Figures no measure computes yet: sample text, and said so.
            title: t('本月概况（示例数据）', 'This month (sample figures)'),
            items: [
              { label: t('服务申请', 'Service requests'), value: '12', suffix: t('件', '') },
              { label: t('待办通知', 'Open notices'), value: '3', suffix: t('条', '') },
              { label: t('成员', 'Members'), value: '28', suffix: t('人', '') },
            ],
          },
        },
        {
          kind: 'text',
          h: 3,
          props: {
            title: t('园区公告', 'Park announcement'),
            text: t(
              '本月园区将开展安全生产检查，请各企业于12月15日前完成自查。',
              'The park holds its work-safety inspection this month; please complete your self-check by December 15.',
            ),
          },
        },
        {
          kind: 'links',
          h: 3,
          props: {
            title: t('常用入口', 'Shortcuts'),
            items: [
              { title: t('服务申请', 'Service requests'), path: '/ent/apply' },
              { title: t('物业报修', 'Repair requests'), path: '/park-services/repair' },
              { title: t('我的消息', 'My messages'), path: '/message/index' },
            ],
          },
        },
      ]),
    },
  },
  {
    code: 'park-news',
    document: {
      format: 1,
      title: t('园区资讯', 'Park news'),
      widgets: stacked([
        {
          kind: 'text',
          h: 3,
          props: {
            title: t(
              '11月20日 · 园区2026年度企业服务满意度调查启动',
              'Nov 20 · The park’s 2026 enterprise service satisfaction survey begins',
            ),
            text: t(
              '为持续提升服务质量，园区即日起开展年度企业服务满意度调查，请各企业于12月5日前通过“服务申请”提交问卷。',
              'To keep improving its services, the park is running its annual satisfaction survey from today. Please submit the questionnaire through “Service requests” by December 5.',
            ),
          },
        },
        {
          kind: 'text',
          h: 3,
          props: {
            title: t('11月18日 · 冬季供暖及用电安全提示', 'Nov 18 · Winter heating and electrical safety'),
            text: t(
              '园区集中供暖将于11月25日开始试运行。请各企业检查办公区域用电线路，下班前关闭非必要电器。',
              'Central heating starts its trial run on November 25. Please check the wiring of your offices and switch off appliances you do not need before leaving.',
            ),
          },
        },
        {
          kind: 'text',
          h: 3,
          props: {
            title: t(
              '11月12日 · 科技型中小企业评价政策解读会',
              'Nov 12 · Briefing on the evaluation of technology-based SMEs',
            ),
            text: t(
              '园区将于12月3日下午在综合服务中心三楼举办政策解读会，欢迎各企业派员参加。',
              'The park holds a policy briefing on the afternoon of December 3 on the third floor of the service center; all enterprises are welcome to send someone.',
            ),
          },
        },
        {
          kind: 'links',
          h: 3,
          props: {
            title: t('相关服务', 'Related services'),
            items: [
              { title: t('服务申请', 'Service requests'), path: '/ent/apply' },
              { title: t('会议室预约', 'Meeting rooms'), path: '/park-services/meeting' },
              { title: t('我的消息', 'My messages'), path: '/message/index' },
            ],
          },
        },
      ]),
    },
  },
  {
    code: 'demo-dashboard',
    document: {
      format: 1,
      title: t('数据看板', 'Data dashboard'),
      widgets: stacked([
        {
          kind: 'stats',
          h: 3,
          props: {
            items: [
              {
                label: t('入驻企业', 'Resident enterprises'),
                value: '',
                measure: 'residentEnterprises',
                suffix: t('家', ''),
              },
              {
                label: t('本月注册', 'Registered this month'),
                value: '',
                measure: 'registeredThisMonth',
                suffix: t('家', ''),
              },
            ],
          },
        },
        {
          kind: 'chart',
          h: 6,
          props: {
            title: t('近六个月新增企业（示例数据）', 'New enterprises, last six months (sample data)'),
            type: 'bar',
            points: [
              { label: t('6月', 'Jun'), value: 8 },
              { label: t('7月', 'Jul'), value: 11 },
              { label: t('8月', 'Aug'), value: 9 },
              { label: t('9月', 'Sep'), value: 14 },
              { label: t('10月', 'Oct'), value: 12 },
              { label: t('11月', 'Nov'), value: 16 },
            ],
          },
        },
      ]),
    },
  },
  {
    code: 'ops-board',
    document: {
      format: 1,
      title: t('运营看板', 'Operations board'),
      widgets: [
        {
          id: 'w1',
          x: 0,
          y: 0,
          w: 12,
          h: 3,
          kind: 'stats',
          props: {
            title: t('今日概况', 'Today'),
            // Live: each figure is one the server computes for the park when the page is shown.
            items: [
              {
                label: t('入驻企业', 'Resident enterprises'),
                value: '',
                measure: 'residentEnterprises',
                suffix: t('家', ''),
              },
              { label: t('在线设备', 'Devices online'), value: '', measure: 'devicesOnline', suffix: t('台', '') },
              { label: t('未处理告警', 'Open alerts'), value: '', measure: 'openAlerts', suffix: t('条', '') },
            ],
          },
        },
        {
          id: 'w2',
          x: 0,
          y: 3,
          w: 6,
          h: 6,
          kind: 'devices',
          props: { title: t('设备状态', 'Device status'), count: 6 },
        },
        {
          id: 'w3',
          x: 6,
          y: 3,
          w: 6,
          h: 6,
          kind: 'notices',
          props: { title: t('最新通知', 'Latest notices'), count: 5 },
        },
      ],
    },
  },
];
