import type { PageDocument } from '@portal/contracts';
import { Modal, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { PageGrid } from '../view/page-grid';
import { useLocalText } from '../widgets/language';

/**
 * The page as its menu entry will show it, at a desktop width or a phone's. The phone preview is a
 * frame-less box 390 px wide: the grid reads the window's breakpoint, so the column is forced.
 */
export function PreviewDialog({ open, doc, onClose }: { open: boolean; doc: PageDocument; onClose: () => void }) {
  const { t } = useTranslation();
  const text = useLocalText();
  const [width, setWidth] = useState<'desktop' | 'phone'>('desktop');
  return (
    <Modal open={open} onCancel={onClose} footer={null} width="92vw" title={t('dragPage.preview')} destroyOnHidden>
      <Segmented
        value={width}
        onChange={(v) => setWidth(v as 'desktop' | 'phone')}
        options={[
          { value: 'desktop', label: t('dragPage.desktop') },
          { value: 'phone', label: t('dragPage.phone') },
        ]}
      />
      <div className={`pb-preview pb-preview-${width}`}>
        <Typography.Title level={4}>{text(doc.title)}</Typography.Title>
        <PageGrid doc={doc} column={width === 'phone'} />
      </div>
    </Modal>
  );
}
