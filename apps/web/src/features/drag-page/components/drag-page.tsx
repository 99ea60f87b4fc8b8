import type { PageBlock } from '@portal/contracts';
import { Button, Card, Col, Result, Row, Skeleton, Statistic, Typography } from 'antd';
import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../../../lib/api/client';
import { usePageDefinition } from '../api/get-page-definition';
import './drag-page.css';

/**
 * A drag-page view: the definition a menu entry points at (meta.pageId), block by block. Text is
 * rendered as text, never as HTML; links stay inside the portal. The builder comes later.
 */
export function DragPage({ code }: { code: string }) {
  const { t } = useTranslation();
  const page = usePageDefinition(code);
  if (page.isPending) return <Skeleton active style={{ padding: 24 }} />;
  if (page.isError) {
    const missing = page.error instanceof ApiError && page.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'warning'}
        title={missing ? t('dragPage.missing') : t('dragPage.failed')}
        subTitle={page.error.message}
        extra={missing ? null : <Button onClick={() => void page.refetch()}>{t('dragPage.retry')}</Button>}
      />
    );
  }
  return (
    <div className="drag-page">
      <Typography.Title level={4} className="drag-page-title">
        {page.data.title}
      </Typography.Title>
      {page.data.blocks.map((block, i) => (
        <Block key={i} block={block} />
      ))}
    </div>
  );
}

function Block({ block }: { block: PageBlock }) {
  const location = useLocation();
  switch (block.type) {
    case 'text':
      return (
        <Card title={block.title} variant="borderless">
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{block.text}</Typography.Paragraph>
        </Card>
      );
    case 'stats':
      return (
        <Card title={block.title} variant="borderless">
          <Row gutter={[16, 16]}>
            {block.items.map((s) => (
              <Col key={s.label} xs={12} md={6}>
                <Statistic title={s.label} value={s.value} suffix={s.suffix} />
              </Col>
            ))}
          </Row>
        </Card>
      );
    case 'links':
      return (
        <Card title={block.title} variant="borderless">
          <div className="drag-page-links">
            {block.items.map((l) => (
              <Link key={l.path} to={{ pathname: l.path, search: location.search }}>
                {l.title}
              </Link>
            ))}
          </div>
        </Card>
      );
  }
}
