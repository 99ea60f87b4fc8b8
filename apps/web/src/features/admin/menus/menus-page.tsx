/**
 * 菜单管理 (ADR 031, menu component `admin/menus`): the tenant's menu as a tree. Entries move by
 * drag and drop (antd Tree's own) or one step up or down (keyboard and touch); a selected entry
 * gets a child, is edited, hidden or shown, or deleted (refused while it has children). The whole
 * menu is exported as a file and imported from one (which replaces it).
 */
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  PlusOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import type { AdminMenu, MenuExport, MenuMove } from '@portal/contracts';
import { Button, Empty, Skeleton, Space, Tag, Tree, type TreeDataNode, type TreeProps } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { adminCall, idPath, patch, post, remove, useAdminQuery, useChange } from '../api/admin';
import { useScope } from '../api/scope';
import { ConsolePage, Failed, nameIn, Toolbar, useConfirm } from '../components/console';
import { saveFile } from '../components/save-file';
import { MenuDrawer } from './menu-drawer';
import { branchIds, buildTree, moveTarget, placesOf, relativePosition, stepTarget, type MenuNode } from './tree';
import './menus.css';

const MENUS = '/api/admin/menus';

type Editing = { kind: 'edit'; menu: AdminMenu } | { kind: 'create'; parent: AdminMenu | null } | null;

export function MenusPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const menus = useAdminQuery<AdminMenu[]>(MENUS);
  const tree = useMemo(() => buildTree(menus.data ?? []), [menus.data]);
  const places = useMemo(() => placesOf(tree), [tree]);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const { busy, run } = useChange();
  const { confirm, holder } = useConfirm();
  const tenant = useScope((s) => s.tenant);
  const ownTenant = useSession((s) => s.userInfo?.tenantCode);
  const file = useRef<HTMLInputElement>(null);
  const [exporting, setExporting] = useState(false);
  const selected = selectedId ? (places.get(selectedId)?.node ?? null) : null;
  const open = expanded;

  const move = (id: string, to: MenuMove | null) =>
    to ? run(() => post(idPath(MENUS, id, 'move'), to as Record<string, unknown>), t('admin.menus.moved')) : undefined;

  const onDrop: TreeProps['onDrop'] = (info) => {
    if (busy) return;
    const dropId = String(info.node.key);
    const target = moveTarget(tree, {
      dragId: String(info.dragNode.key),
      dropId,
      dropToGap: info.dropToGap,
      position: relativePosition(info.node.pos, info.dropPosition),
      expanded: open.includes(dropId),
    });
    void move(String(info.dragNode.key), target);
  };

  const toggleHidden = (m: MenuNode) =>
    run(
      () => patch(idPath(MENUS, m.id), { hidden: !m.hidden }),
      t(m.hidden ? 'admin.menus.shown' : 'admin.menus.hiddenDone'),
    );

  const del = (m: MenuNode) =>
    confirm({
      title: t('admin.menus.deleteConfirm', { name: nameIn(language, m.title, m.titleEn) }),
      content: t('admin.menus.deleteHint'),
      okText: t('admin.delete'),
      okButtonProps: { danger: true },
      onOk: async () => {
        if (await run(() => remove(idPath(MENUS, m.id)), t('admin.deleted'))) setSelectedId(null);
      },
    });

  async function exportMenus() {
    setExporting(true);
    let data: MenuExport;
    try {
      data = await adminCall<MenuExport>(`${MENUS}/export`);
    } catch {
      return; // the handler showed the server's message
    } finally {
      setExporting(false);
    }
    saveFile(`menus-${tenant?.code ?? ownTenant ?? 'tenant'}.json`, JSON.stringify(data, null, 2), 'application/json');
  }

  async function importFile(chosen: File) {
    let data: MenuExport;
    try {
      data = JSON.parse(await chosen.text()) as MenuExport;
      if (data?.format !== 1 || !Array.isArray(data.menus)) throw new Error('format');
    } catch {
      toast('error', t('admin.menus.importInvalid'));
      return;
    }
    confirm({
      title: t('admin.menus.importConfirm', { name: chosen.name }),
      content: t('admin.menus.importHint'),
      okText: t('admin.menus.import'),
      okButtonProps: { danger: true },
      onOk: async () => {
        const done = await run(() => post<number>(`${MENUS}/import`, data as unknown as Record<string, unknown>));
        if (done) {
          toast('success', t('admin.menus.imported', { count: done.value }));
          setSelectedId(null);
          setExpanded([]);
        }
      },
    });
  }

  const treeData = useMemo(() => {
    const toData = (list: MenuNode[]): TreeDataNode[] =>
      list.map((n) => ({
        key: n.id,
        title: (
          <span className={`admin-menu-node${n.hidden ? ' is-hidden' : ''}`} data-path={n.path}>
            <span className="admin-menu-title">{nameIn(language, n.title, n.titleEn)}</span>
            <span className="admin-menu-path">{n.path}</span>
            {n.hidden ? <Tag>{t('admin.menus.hidden')}</Tag> : null}
          </span>
        ),
        children: toData(n.children),
      }));
    return toData(tree);
  }, [tree, t, language]);

  const place = selected ? places.get(selected.id) : undefined;
  const index = place ? place.siblings.indexOf(place.node) : -1;

  return (
    <ConsolePage className="admin-menus">
      <Toolbar
        filters={
          <Space wrap>
            <Button icon={<PlusOutlined />} type="primary" onClick={() => setEditing({ kind: 'create', parent: null })}>
              {t('admin.menus.createTop')}
            </Button>
            <Button onClick={() => setExpanded(open.length ? [] : branchIds(tree))}>
              {t(open.length ? 'admin.menus.collapse' : 'admin.menus.expand')}
            </Button>
          </Space>
        }
        actions={
          <>
            <Button icon={<DownloadOutlined />} onClick={() => void exportMenus()} loading={exporting}>
              {t('admin.menus.export')}
            </Button>
            <Button icon={<UploadOutlined />} onClick={() => file.current?.click()}>
              {t('admin.menus.import')}
            </Button>
            <input
              ref={file}
              type="file"
              accept="application/json,.json"
              hidden
              aria-label={t('admin.menus.import')}
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                e.target.value = '';
                if (chosen) void importFile(chosen);
              }}
            />
          </>
        }
      />
      <div className="admin-menu-bar" aria-live="polite">
        {selected ? (
          <>
            <span className="admin-menu-selected">
              {t('admin.menus.selected', { name: nameIn(language, selected.title, selected.titleEn) })}
            </span>
            <Space wrap size={4}>
              <Button
                size="small"
                icon={<PlusOutlined />}
                onClick={() => setEditing({ kind: 'create', parent: selected })}
              >
                {t('admin.menus.createChild')}
              </Button>
              <Button size="small" icon={<EditOutlined />} onClick={() => setEditing({ kind: 'edit', menu: selected })}>
                {t('admin.edit')}
              </Button>
              <Button
                size="small"
                icon={selected.hidden ? <EyeOutlined /> : <EyeInvisibleOutlined />}
                onClick={() => void toggleHidden(selected)}
              >
                {t(selected.hidden ? 'admin.menus.show' : 'admin.menus.hide')}
              </Button>
              <Button
                size="small"
                icon={<ArrowUpOutlined />}
                disabled={index <= 0}
                onClick={() => void move(selected.id, stepTarget(tree, selected.id, -1))}
              >
                {t('admin.menus.up')}
              </Button>
              <Button
                size="small"
                icon={<ArrowDownOutlined />}
                disabled={!place || index >= place.siblings.length - 1}
                onClick={() => void move(selected.id, stepTarget(tree, selected.id, 1))}
              >
                {t('admin.menus.down')}
              </Button>
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                disabled={selected.children.length > 0}
                title={selected.children.length > 0 ? t('admin.menus.hasChildren') : undefined}
                onClick={() => del(selected)}
              >
                {t('admin.delete')}
              </Button>
            </Space>
          </>
        ) : (
          <span className="admin-secondary">{t('admin.menus.pick')}</span>
        )}
      </div>
      {menus.isError ? <Failed error={menus.error} retry={() => void menus.refetch()} /> : null}
      {menus.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : tree.length === 0 ? (
        <Empty description={t('admin.menus.empty')} />
      ) : (
        <Tree
          className="admin-menu-tree"
          draggable={{ icon: false }}
          blockNode
          showLine
          treeData={treeData}
          expandedKeys={open}
          onExpand={(keys) => setExpanded(keys.map(String))}
          selectedKeys={selectedId ? [selectedId] : []}
          onSelect={(keys) => setSelectedId(keys.length ? String(keys[0]) : null)}
          onDrop={onDrop}
        />
      )}
      <MenuDrawer
        editing={editing}
        onClose={() => setEditing(null)}
        onCreated={(id, parentId) => {
          // The new entry is shown and chosen: its branch opens.
          if (parentId) setExpanded((keys) => (keys.includes(parentId) ? keys : [...keys, parentId]));
          setSelectedId(id);
        }}
      />
      {holder}
    </ConsolePage>
  );
}
