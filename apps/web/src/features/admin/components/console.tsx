/**
 * What every console page shares: the bar naming the tenant acted on, a toolbar that wraps on a
 * phone, a list's failure in place with a retry, drawers that take the whole width of a phone, and
 * the table settings that let wide tables scroll sideways there.
 */
import {
  Alert,
  Button,
  ConfigProvider,
  Drawer,
  Grid,
  Modal,
  Space,
  Table,
  Tag,
  type ModalFuncProps,
  type TableProps,
  type ThemeConfig,
} from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import { useRef, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { chooseTenant, useScope } from '../api/scope';
import '../messages';
import './console.css';

/** True below antd's `md` breakpoint (a phone). */
export const usePhone = () => Grid.useBreakpoint().md === false;

/** The tenant acted on, when it is not one's own, with the way back. */
export function TenantBar() {
  const { t } = useTranslation();
  const tenant = useScope((s) => s.tenant);
  if (!tenant) return null;
  return (
    <Alert
      className="admin-tenant-bar"
      type="warning"
      showIcon
      message={t('admin.tenantBar', { name: tenant.name, code: tenant.code })}
      action={
        <Button size="small" onClick={() => chooseTenant(null)}>
          {t('admin.ownTenant')}
        </Button>
      }
    />
  );
}

// antd's red (#ff4d4f) fails WCAG AA on white, as text and under white text; the console's
// destructive actions and form messages use a darker one (5.6:1). Drawers and dialogs inherit it.
const theme: ThemeConfig = { token: { colorError: '#cf1322' } };

/** A console page: the tenant bar, then the page. */
export function ConsolePage({ className, children }: { className: string; children: ReactNode }) {
  return (
    <ConfigProvider theme={theme}>
      <div className={`admin-page ${className}`}>
        <TenantBar />
        {children}
      </div>
    </ConfigProvider>
  );
}

/** Filters on the left, actions on the right; both wrap on a narrow screen. */
export function Toolbar({ filters, actions }: { filters?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="admin-toolbar">
      <Space wrap className="admin-filters">
        {filters}
      </Space>
      {actions ? (
        <Space wrap className="admin-actions">
          {actions}
        </Space>
      ) : null}
    </div>
  );
}

/** A list that could not be read: the server's message and a retry. */
export function Failed({ error, retry }: { error: Error; retry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      className="admin-failed"
      type="error"
      showIcon
      message={t('admin.loadFailed')}
      description={error.message}
      action={
        <Button size="small" onClick={retry}>
          {t('admin.retry')}
        </Button>
      }
    />
  );
}

/** Table settings every console table shares: sideways scrolling, a smaller size on a phone. */
export function useTableProps<T>(): Partial<TableProps<T>> {
  const phone = usePhone();
  return { scroll: { x: 'max-content' }, size: phone ? 'small' : 'middle', tableLayout: 'auto' };
}

/**
 * A table over one of the console's list calls: the call's failure with a retry above it, its
 * loading state, rows keyed by id, and the phone-aware table props; the page gives the rest.
 */
export function QueryTable<T extends { id: string }>({
  query,
  ...props
}: { query: Pick<UseQueryResult<unknown>, 'isError' | 'error' | 'isFetching' | 'refetch'> } & TableProps<T>) {
  const table = useTableProps<T>();
  return (
    <>
      {query.isError && query.error ? <Failed error={query.error} retry={() => void query.refetch()} /> : null}
      <Table<T> {...table} rowKey="id" loading={query.isFetching} {...props} />
    </>
  );
}

/** The first field a person can type in or choose from, within `root`. */
const FIRST_FIELD =
  'input:not([type=hidden]):not([disabled]):not([readonly]), textarea:not([disabled]), [role=combobox]:not([aria-disabled=true])';

/**
 * A form in a drawer: the whole width of a phone, save and cancel at the bottom; once open, the
 * first field that can be filled in has the focus (the drawer itself takes it on opening).
 */
export function FormDrawer({
  open,
  title,
  busy,
  onClose,
  onSave,
  saveText,
  saveDisabled = false,
  width = 520,
  children,
}: {
  open: boolean;
  title: ReactNode;
  busy: boolean;
  onClose: () => void;
  onSave: () => void;
  saveText?: string;
  saveDisabled?: boolean;
  width?: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const phone = usePhone();
  const fields = useRef<HTMLDivElement>(null);
  return (
    <Drawer
      open={open}
      title={title}
      onClose={onClose}
      width={phone ? '100%' : width}
      destroyOnHidden
      afterOpenChange={(opened) => {
        if (opened) fields.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
      }}
      footer={
        <Space className="admin-drawer-footer">
          <Button onClick={onClose}>{t('admin.cancel')}</Button>
          <Button type="primary" loading={busy} disabled={saveDisabled} onClick={onSave}>
            {saveText ?? t('admin.save')}
          </Button>
        </Space>
      }
    >
      <div ref={fields}>{children}</div>
    </Drawer>
  );
}

/** A name and, when given, its English beside it (ADR 020). */
export function Named({ name, en }: { name: string; en?: string | null }) {
  return (
    <>
      {name}
      {en && en !== name ? <div className="admin-secondary">{en}</div> : null}
    </>
  );
}

/** An instant as the reader's local date and time (minutes), or '-'. */
export function formatTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(language, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
}

/** Names as tags: the first few, then how many more (all of them in the last tag's title). */
export function TagList({ items, max = 3 }: { items: { id: string; name: string }[]; max?: number }) {
  if (items.length === 0) return <>-</>;
  const rest = items.slice(max);
  return (
    <span className="admin-tags">
      {items.slice(0, max).map((r) => (
        <Tag key={r.id}>{r.name}</Tag>
      ))}
      {rest.length ? <Tag title={rest.map((r) => r.name).join('、')}>+{rest.length}</Tag> : null}
    </span>
  );
}

/** Solid tag colours dark enough for white text (WCAG AA); antd's light presets are too faint. */
export const TAG = { good: '#237804', waiting: '#874d00', bad: '#a8071a', notice: '#ad4e00' } as const;

/**
 * Confirmations rendered inside the page (`holder` goes into it), so they take the console's theme
 * and locale like its drawers do.
 */
export function useConfirm() {
  const [modal, holder] = Modal.useModal();
  return { confirm: (props: ModalFuncProps) => void modal.confirm(props), holder };
}
