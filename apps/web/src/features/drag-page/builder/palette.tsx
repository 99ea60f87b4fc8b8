import { WIDGET_KINDS, type WidgetKind } from '@portal/contracts';
import {
  AppstoreOutlined,
  BarChartOutlined,
  BellOutlined,
  FileTextOutlined,
  GlobalOutlined,
  LinkOutlined,
  NumberOutlined,
  PictureOutlined,
  TableOutlined,
} from '@ant-design/icons';
import { Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { DRAG_TYPE } from './canvas';

const ICONS: Record<WidgetKind, ReactNode> = {
  text: <FileTextOutlined />,
  image: <PictureOutlined />,
  links: <LinkOutlined />,
  stats: <NumberOutlined />,
  chart: <BarChartOutlined />,
  table: <TableOutlined />,
  iframe: <GlobalOutlined />,
  notices: <BellOutlined />,
  devices: <AppstoreOutlined />,
};

/**
 * The widgets to drag onto the canvas. A click (or Enter) adds one below the others, for those who
 * do not drag. A frame needs an application registered to embed: without one it is not offered.
 */
export function Palette({ onAdd, canFrame }: { onAdd: (kind: WidgetKind) => void; canFrame: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="pb-palette" role="list" aria-label={t('dragPage.palette')}>
      {WIDGET_KINDS.map((kind) => {
        const disabled = kind === 'iframe' && !canFrame;
        const item = (
          <button
            key={kind}
            type="button"
            role="listitem"
            className="pb-palette-item"
            data-kind={kind}
            draggable={!disabled}
            disabled={disabled}
            onDragStart={(e) => {
              e.dataTransfer.setData(DRAG_TYPE, kind);
              // The kind in a type of its own: dragover may read the types, not the data.
              e.dataTransfer.setData(`${DRAG_TYPE}+${kind}`, '');
              e.dataTransfer.setData('text/plain', '');
              e.dataTransfer.effectAllowed = 'copy';
            }}
            onClick={() => onAdd(kind)}
          >
            {ICONS[kind]}
            <span>{t(`dragPage.kinds.${kind}`)}</span>
          </button>
        );
        return disabled ? (
          <Tooltip key={kind} title={t('dragPage.noFrames')}>
            <span>{item}</span>
          </Tooltip>
        ) : (
          item
        );
      })}
    </div>
  );
}
