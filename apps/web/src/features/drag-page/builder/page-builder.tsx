/**
 * The drag-page builder (docs/product/screens.md#lazy-pages; ADR 028): operators pick a page or start one, drag
 * widgets from the palette onto the grid, set them up, preview, undo and redo, save versions,
 * publish one for the page's menu entries, and restore an earlier one.
 */
import '../messages';
import { type PageDocument, type WidgetKind } from '@portal/contracts';
import {
  EyeOutlined,
  HistoryOutlined,
  PlusOutlined,
  RedoOutlined,
  SaveOutlined,
  SendOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { Alert, Button, Grid, Modal, Result, Select, Space, Tag, Tooltip, message } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { publishPage, savePage, useLatestPage, usePageList, useRefreshPages } from '../api/pages';
import { useLocalText } from '../widgets/language';
import { Canvas } from './canvas';
import { firstIssue } from './check';
import { addWidget, applyLayout, blankDocument, removeWidget, settle, updateProps } from './document';
import { commit, historyOf, redo, undo, type History } from './history';
import { NewPageDialog } from './new-page-dialog';
import { Palette } from './palette';
import { PreviewDialog } from './preview-dialog';
import { Properties } from './properties';
import { VersionsDrawer } from './versions-drawer';
import '../drag-page.css';
import './builder.css';

interface Editing {
  code: string;
  /** The version the document was loaded from or last saved as; 0 for a page not saved yet. */
  base: number;
  published: number | null;
  saved: PageDocument;
  history: History<PageDocument>;
}

export function PageBuilder() {
  const { t } = useTranslation();
  const text = useLocalText();
  const phone = Grid.useBreakpoint().md === false;
  const list = usePageList();
  const refresh = useRefreshPages();
  const [code, setCode] = useState<string | null>(null);
  const latest = useLatestPage(code);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<'new' | 'preview' | 'versions' | null>(null);
  const microApps = useSession((s) => s.microApps);
  // Framed services at an http(s) address: a path entry is the portal's own, not a frame to offer.
  const frames = useMemo(
    () =>
      (microApps ?? [])
        .filter((a) => a.serviceType === 1 && /^https?:\/\//.test(a.entry) && URL.canParse(a.entry))
        .map((a) => ({ label: a.name, url: a.entry })),
    [microApps],
  );

  // The first page of the list is opened at once.
  useEffect(() => {
    if (code === null && list.data?.length) setCode(list.data[0]!.code);
  }, [code, list.data]);
  // A page loaded from the server becomes the editor's own copy.
  useEffect(() => {
    if (!latest.data || editing?.code === latest.data.code) return;
    const { code: c, version, publishedVersion, document } = latest.data;
    setEditing({ code: c, base: version, published: publishedVersion, saved: document, history: historyOf(document) });
    setSelected(null);
  }, [latest.data, editing?.code]);

  const doc = editing?.history.present ?? null;
  const dirty = editing !== null && editing.history.present !== editing.saved;
  const change = useCallback((next: (d: PageDocument) => PageDocument) => {
    setEditing((e) => (e ? { ...e, history: commit(e.history, next(e.history.present)) } : e));
  }, []);
  const step = useCallback((move: typeof undo) => {
    setEditing((e) => (e ? { ...e, history: move(e.history) } : e));
  }, []);

  // Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y, and Delete for the selected widget: on the canvas only, not in
  // text fields, and not while a dialog or the versions are open over it.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (dialog !== null || target.closest('input, textarea, [contenteditable="true"], .ant-select')) return;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        step(e.shiftKey ? redo : undo);
      } else if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        step(redo);
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && selected) {
        change((d) => settle(removeWidget(d, selected)));
        setSelected(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step, change, selected, dialog]);

  /** Whether the unsaved changes, if any, may go. */
  const mayDiscard = () => !dirty || window.confirm(t('dragPage.discard'));

  /** A refused call says why; a newer version saved by someone else offers to load it. */
  function failed(err: unknown) {
    if (err instanceof ApiError && err.status === 409 && editing?.base !== 0) {
      Modal.confirm({
        title: err.message,
        okText: t('dragPage.reload'),
        onOk: () => reload(),
      });
      return;
    }
    void message.error(err instanceof ApiError ? err.message : t('dragPage.saveFailed'));
  }

  async function save(): Promise<number | null> {
    if (!editing || !doc) return null;
    const issue = firstIssue(doc);
    if (issue) {
      if (issue.widget) setSelected(issue.widget);
      void message.error(t(issue.key, { field: issue.field ?? '' }));
      return null;
    }
    setBusy(true);
    try {
      const version = await savePage(editing.code, editing.base, doc);
      setEditing((e) => (e ? { ...e, base: version, saved: doc } : e));
      void message.success(t('dragPage.saved', { version }));
      void refresh();
      return version;
    } catch (err) {
      failed(err);
      return null;
    } finally {
      setBusy(false);
    }
  }

  async function publish() {
    if (!editing) return;
    const version = dirty || editing.base === 0 ? await save() : editing.base;
    if (version === null) return;
    setBusy(true);
    try {
      await publishPage(editing.code, version);
      setEditing((e) => (e ? { ...e, published: version } : e));
      void message.success(t('dragPage.published', { version }));
      void refresh();
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  }

  /** The page's latest version from the server becomes the editor's (after a restore, or a 409). */
  async function reload() {
    await refresh();
    setEditing(null);
  }

  if (phone) return <Result status="info" title={t('dragPage.wideScreen')} />;
  if (list.isError) return <Result status="warning" title={list.error.message} />;

  const selectedWidget = doc?.widgets.find((w) => w.id === selected) ?? null;
  const pages = list.data ?? [];
  return (
    <div className="pb">
      <div className="pb-toolbar">
        <Space wrap>
          <Select
            className="pb-page-select"
            aria-label={t('dragPage.page')}
            loading={list.isPending}
            value={code ?? undefined}
            placeholder={t('dragPage.page')}
            options={[
              ...pages.map((p) => ({ value: p.code, label: `${p.title} (${p.code})` })),
              ...(editing && !pages.some((p) => p.code === editing.code)
                ? [{ value: editing.code, label: `${text(editing.saved.title)} (${editing.code})` }]
                : []),
            ]}
            onChange={(c: string) => {
              if (!mayDiscard()) return;
              setEditing(null);
              setCode(c);
            }}
          />
          <Button icon={<PlusOutlined />} onClick={() => mayDiscard() && setDialog('new')}>
            {t('dragPage.newPage')}
          </Button>
        </Space>
        <Space wrap>
          <Tooltip title={t('dragPage.undo')}>
            <Button
              icon={<UndoOutlined />}
              aria-label={t('dragPage.undo')}
              disabled={!editing?.history.past.length}
              onClick={() => step(undo)}
            />
          </Tooltip>
          <Tooltip title={t('dragPage.redo')}>
            <Button
              icon={<RedoOutlined />}
              aria-label={t('dragPage.redo')}
              disabled={!editing?.history.future.length}
              onClick={() => step(redo)}
            />
          </Tooltip>
          <Button icon={<EyeOutlined />} disabled={!doc} onClick={() => setDialog('preview')}>
            {t('dragPage.preview')}
          </Button>
          <Button
            icon={<HistoryOutlined />}
            disabled={!editing || editing.base === 0}
            onClick={() => setDialog('versions')}
          >
            {t('dragPage.versions')}
          </Button>
          <Button
            icon={<SaveOutlined />}
            loading={busy}
            disabled={!dirty && editing?.base !== 0}
            onClick={() => void save()}
          >
            {t('dragPage.save')}
          </Button>
          <Button
            type="primary"
            icon={<SendOutlined />}
            loading={busy}
            disabled={!editing || (!dirty && editing.published === editing.base)}
            onClick={() => void publish()}
          >
            {t('dragPage.publish')}
          </Button>
        </Space>
      </div>
      {editing ? (
        <div className="pb-status" aria-live="polite">
          <Tag>{t('dragPage.version', { version: editing.base || '—' })}</Tag>
          {editing.published === null ? (
            <Tag color="default">{t('dragPage.unpublished')}</Tag>
          ) : (
            <Tag color="#237804">{t('dragPage.publishedTag', { version: editing.published })}</Tag>
          )}
          {dirty ? <Tag color="#ad4e00">{t('dragPage.unsaved')}</Tag> : null}
        </div>
      ) : null}
      {pages.length === 0 && !editing && !list.isPending ? (
        <Alert type="info" showIcon message={t('dragPage.noPages')} />
      ) : null}
      {editing && doc ? (
        <div className="pb-body">
          <aside className="pb-side">
            <Palette
              canFrame={frames.length > 0}
              onAdd={(kind: WidgetKind) => {
                const bottom = Math.max(0, ...doc.widgets.map((w) => w.y + w.h));
                const added = addWidget(doc, kind, { x: 0, y: bottom }, frames[0]?.url);
                change(() => settle(added.doc));
                setSelected(added.id);
              }}
            />
          </aside>
          <main className="pb-main">
            <Canvas
              doc={doc}
              selected={selected}
              onSelect={setSelected}
              onLayout={(layout) => change((d) => applyLayout(d, layout))}
              onDrop={(kind, at) => {
                const added = addWidget(doc, kind, at, frames[0]?.url);
                change(() => settle(added.doc));
                setSelected(added.id);
              }}
              onRemove={(id) => {
                change((d) => settle(removeWidget(d, id)));
                setSelected(null);
              }}
            />
          </main>
          <aside className="pb-side pb-side-right" aria-label={t('dragPage.properties')}>
            <Properties
              widget={selectedWidget}
              frameEntries={frames}
              onChange={(props) => selected && change((d) => updateProps(d, selected, props))}
            />
          </aside>
        </div>
      ) : null}
      <NewPageDialog
        open={dialog === 'new'}
        taken={pages.map((p) => p.code)}
        onClose={() => setDialog(null)}
        onCreate={(c, title) => {
          const blank = blankDocument(title);
          setCode(c);
          setEditing({ code: c, base: 0, published: null, saved: blank, history: historyOf(blank) });
          setSelected(null);
          setDialog(null);
        }}
      />
      {doc ? <PreviewDialog open={dialog === 'preview'} doc={doc} onClose={() => setDialog(null)} /> : null}
      {editing ? (
        <VersionsDrawer
          open={dialog === 'versions'}
          code={editing.code}
          published={editing.published}
          onClose={() => setDialog(null)}
          onRestored={() => {
            setDialog(null);
            void reload();
          }}
        />
      ) : null}
    </div>
  );
}
