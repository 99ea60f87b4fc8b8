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
  const { t, i18n } = useTranslation();
  const tenant = useScope((s) => s.tenant);
  if (!tenant) return null;
  return (
    <Alert
      className="admin-tenant-bar"
      type="warning"
      showIcon
      message={t('admin.tenantBar', { name: nameIn(i18n.language, tenant.name, tenant.nameEn), code: tenant.code })}
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

/**
 * Table settings every console table shares (ADR 047): the table takes its card's width and its
 * cells wrap to fit it (`x: true` is `width: auto`, where `max-content` kept every cell on one line
 * and pushed the last columns under the pinned actions); only a table that cannot fit even wrapped
 * (a phone) scrolls sideways inside its card. Headers never wrap or cut (console.css). Smaller on a phone.
 */
export function useTableProps<T>(): Partial<TableProps<T>> {
  const phone = usePhone();
  return { scroll: { x: true }, size: phone ? 'small' : 'middle', tableLayout: 'auto' };
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
 * first field that can be filled in has the focus (the drawer itself takes it on opening), unless
 * the person already chose a field or a button while it slid in: the opening ends up to half a
 * second after the click (later on a busy machine), and moving the focus then would send the rest
 * of their typing into the first field.
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
        const content = fields.current?.closest('.ant-drawer-content');
        if (opened && !content?.contains(document.activeElement))
          fields.current?.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
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

/**
 * A name that is data in the reader's language (ADR 047): its English in English mode when it has
 * one, else the Chinese of record. Every message the console builds from a name (a title, a
 * confirmation, a toast) takes the name from here.
 */
export function nameIn(language: string, name: string, en?: string | null): string {
  return language === 'en-US' && en ? en : name;
}

/** `nameIn` for the reader's language. */
export function useNameOf(): (name: string, en?: string | null) => string {
  const { i18n } = useTranslation();
  return (name, en) => nameIn(i18n.language, name, en);
}

/**
 * The console's one way to show a name that is data (ADR 047): the name in the reader's language
 * (`nameIn`), and underneath, smaller, the other language where the operator keeps both: in Chinese
 * its English (whether there is one, and what it says); in English the Chinese of record only where
 * `both` asks for it (the pages whose job is the names themselves).
 */
export function Named({ name, en, both = false }: { name: string; en?: string | null; both?: boolean }) {
  const { i18n } = useTranslation();
  const english = i18n.language === 'en-US';
  const shown = nameIn(i18n.language, name, en);
  const other = english ? (both ? name : null) : en;
  return (
    <div className="admin-name">
      {shown}
      {other && other !== shown ? <div className="admin-secondary">{other}</div> : null}
    </div>
  );
}

/**
 * An instant as the reader's local date and time (minutes), or '-'; on one line in a table (its
 * spaces do not break, ADR 047).
 */
export function formatTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d
    .toLocaleString(language, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    })
    .replace(/ /g, '\u00a0');
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
