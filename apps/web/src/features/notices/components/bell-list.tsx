import { LIMITS } from '@portal/contracts';
import { Empty, List, Spin } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { useNoticePage } from '../api/notices';
import { useLiveNotices } from '../live/unread';
import './notices.css';

export const MESSAGE_PAGE = '/message/index';

/** The bell's popover: the newest unread notices (docs/product/limits.md#lists: 3, page 1, readStatus 0) and 查看更多. */
export function BellList({ onOpen, onMore }: { onOpen: (id: string) => void; onMore: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const version = useLiveNotices((s) => s.version);
  const list = useNoticePage({ readStatus: 0 }, 1, LIMITS.noticeBellCount, version);
  return (
    <div className="bell-list">
      {list.isPending ? (
        <Spin size="small" />
      ) : list.data?.rows.length ? (
        <List
          size="small"
          dataSource={list.data.rows}
          renderItem={(n) => (
            <List.Item>
              <button type="button" className="bell-item" onClick={() => onOpen(n.id)}>
                <span className="bell-item-title">{n.title}</span>
                <span className="bell-item-time">{n.pushTime.slice(0, 11)}</span>
              </button>
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notices.noUnread')} />
      )}
      <button
        type="button"
        className="bell-more"
        onClick={() => {
          onMore();
          void navigate(MESSAGE_PAGE);
        }}
      >
        {t('notices.more')}
      </button>
    </div>
  );
}
