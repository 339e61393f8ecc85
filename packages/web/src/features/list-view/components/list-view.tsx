import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, App, Badge, Button, Checkbox, Dropdown, Empty, Flex, Input, Popconfirm, Popover, Segmented, Spin } from 'antd';
import { ColumnHeightOutlined, DeleteOutlined, EditOutlined, FilterOutlined, EllipsisOutlined, LinkOutlined, PlusOutlined, ReloadOutlined, SaveOutlined, SettingOutlined, TableOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@tritium/shared/errors/catalogue';
import { RowHeight, ViewMode } from '@tritium/shared/constants/views';
import { isApiError } from '../../../lib/api-error.ts';
import { useIsPhone } from '../../../lib/use-is-phone.ts';
import { NamesProvider } from '../../form-runtime/model/names.tsx';
import { RuntimeFormModal, type OpenForm } from '../../form-runtime/components/runtime-form-modal.tsx';
import { listViewApi } from '../api/list-view-api.ts';
import { unitIdsOf } from '../model/cells.ts';
import { fromFilter, type Condition } from '../../../components/filter-editor/conditions.ts';
import type { FilterNode } from '@tritium/shared/query/index';
import { useListView } from '../model/use-list-view.ts';
import { BatchEditDialog } from './batch-edit-dialog.tsx';
import { ScriptActionButton } from './script-action-button.tsx';
import { ChangeOwnerButton } from './change-owner-button.tsx';
import { FilterPanel } from './filter-panel.tsx';
import { HierarchyTable } from './hierarchy-table.tsx';
import { RecordTable } from './record-table.tsx';
import { TitleDialog } from './title-dialog.tsx';
import { ViewDesigner } from './view-designer.tsx';
import { ViewTabs } from './view-tabs.tsx';
import { ModeSwitcher } from './mode-switcher.tsx';
import { webModeOf } from '../modes/registry.tsx';
import { SmartActionButtons } from '../../smart-actions/smart-action-buttons.tsx';
import { DataPortButtons } from '../../data-port/components/data-port-buttons.tsx';
import { PrintButton } from '../../print/print-dialog.tsx';
import { permissionApi, permissionKeys } from '../../form-permission/permission-api.ts';

const HEIGHTS = Object.values(RowHeight);
const useTableHeight = () => {
  const [height, setHeight] = useState(() => Math.max(320, window.innerHeight - 420));
  useEffect(() => {
    const on = () => setHeight(Math.max(320, window.innerHeight - 420));
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return height;
};

/** A form's records as its list views show them (issue 8): views, filters, search, statistics, batch changes. */
/** `initialFilter`: conditions the list opens with (a flat And of leaves), shown in its filter panel. */
export function ListView({ schemaCode, initialFilter }: { schemaCode: string; initialFilter?: FilterNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const device = useIsPhone() ? 'phone' : 'pc';
  const s = useListView(schemaCode, device === 'phone', useMemo(() => fromFilter(initialFilter), [initialFilter]));
  // What the caller may do with the form's records: buttons for other actions are not shown (docs/decisions/0037).
  const rights = useQuery({ queryKey: permissionKeys.rights(schemaCode), queryFn: () => permissionApi.rights(schemaCode) });
  // Shown once the rights are known (or when they cannot be read: the server still refuses what it must).
  const may = (action: string) => (rights.data ? rights.data.actions.includes(action as never) : rights.isError);
  const height = useTableHeight();
  const [open, setOpen] = useState<OpenForm | null>(null);
  const [draft, setDraft] = useState<Condition[]>([]);
  const [panel, setPanel] = useState(false);
  const [batch, setBatch] = useState(false);
  const [naming, setNaming] = useState<{ mode: 'add' } | { mode: 'rename'; id: string; title: string } | null>(null);
  const [designing, setDesigning] = useState(false);
  const onBatchDone = useCallback(() => void s.refresh(), [s]);

  if (s.form.isError) {
    const unpublished = isApiError(s.form.error) && s.form.error.errorCode === ERRORS.FormNotPublished.code;
    return <Empty description={unpublished ? t('formRuntime.list.unpublished') : t('formRuntime.loadFailed')} />;
  }
  if (!s.view || !s.active) return <Spin />;
  const view = s.view;
  const rows = (s.data.data?.list ?? []) as (Record<string, unknown> & { ObjectId: string })[];
  const personal = async (p: (typeof s.personal)[number], action: 'rename' | 'left' | 'right' | 'delete') => {
    if (action === 'rename') return setNaming({ mode: 'rename', id: p.Id, title: p.Title });
    if (action === 'delete') {
      await listViewApi.deleteView(p.Id);
      message.success(t('listView.personal.deleted'));
      return s.refreshPersonal();
    }
    const ids = s.personal.map((x) => x.Id);
    const i = ids.indexOf(p.Id);
    const j = action === 'left' ? i - 1 : i + 1;
    [ids[i], ids[j]] = [ids[j], ids[i]];
    await listViewApi.sortViews(schemaCode, ids);
    return s.refreshPersonal();
  };
  const saveTitle = async (title: string) => {
    if (naming?.mode === 'rename') await listViewApi.updateView({ Id: naming.id, Title: title });
    else {
      const added = await listViewApi.addView({ schemaCode, ViewPageId: view.code, Title: title, Config: s.config, Fields: s.columns.map((c) => c.code) });
      await s.refreshPersonal();
      s.activate({ kind: 'personal', id: added.Id }, [...s.personal, added]);
    }
    setNaming(null);
    message.success(t('listView.personal.saved'));
    await s.refreshPersonal();
  };
  const updateCurrent = async () => {
    if (!s.current) return;
    await listViewApi.updateView({ Id: s.current.Id, Config: s.config });
    message.success(t('listView.personal.saved'));
    await s.refreshPersonal();
  };
  const remove = async () => {
    const r = await listViewApi.remove(schemaCode, s.selected);
    s.setSelected([]);
    if (r.failed.length) message.warning(t('listView.deletePartly', { removed: r.removed.length, failed: r.failed.length, reason: r.failed[0].message }));
    else message.success(t('listView.deleted', { count: r.removed.length }));
    await s.refresh();
  };
  const ACTION_RIGHTS: Record<string, string> = { Create: 'create', BatchEdit: 'batchUpdate', Delete: 'delete' };
  const actionButton = (a: (typeof view.actions)[number]) => {
    if (ACTION_RIGHTS[a.type] && !may(ACTION_RIGHTS[a.type]!)) return null;
    switch (a.type) {
      case 'Create':
        return <Button key={a.code} type="primary" icon={<PlusOutlined />} onClick={() => setOpen({ schemaCode, mode: 'Create' })}>{a.title}</Button>;
      case 'BatchEdit':
        return <Button key={a.code} icon={<EditOutlined />} disabled={!s.selected.length} onClick={() => setBatch(true)}>{a.title}</Button>;
      case 'Delete':
        return (
          <Popconfirm key={a.code} title={t('listView.confirmDelete', { count: s.selected.length })} onConfirm={() => void remove()} disabled={!s.selected.length}>
            <Button danger icon={<DeleteOutlined />} disabled={!s.selected.length}>{a.title}</Button>
          </Popconfirm>
        );
      case 'Refresh':
        return <Button key={a.code} icon={<ReloadOutlined />} onClick={() => void s.refresh()}>{a.title}</Button>;
      case 'Script':
        return <ScriptActionButton key={a.code} schemaCode={schemaCode} title={a.title} actionName={a.actionName} selected={s.selected} onDone={() => void s.refresh()} />;
      default:
        return <Button key={a.code} icon={<LinkOutlined />} href={a.url} target="_blank" rel="noopener noreferrer">{a.title}</Button>;
    }
  };
  const allColumns = s.header.data?.columns ?? [];
  const isPhone = device === 'phone';
  const searchBox = view.quickSearch.length > 0 && (
    <Input.Search allowClear aria-label={t('listView.search')} placeholder={t('listView.search')} style={{ width: isPhone ? undefined : 220, flex: isPhone ? 1 : undefined, minWidth: 0 }} defaultValue={s.work.keyword} key={`${s.active.kind}:${'id' in s.active ? s.active.id : s.active.code}`}
      onSearch={(keyword) => { s.setWork({ ...s.work, keyword }); s.setPage(null); }} />
  );
  const filterButton = (
    <Popover trigger="click" open={panel} onOpenChange={(o) => { setPanel(o); if (o) setDraft(s.applied); }} placement="bottomRight"
      content={<FilterPanel fields={s.header.data?.filters ?? []} conditions={draft} onChange={setDraft} onApply={() => { s.apply(draft); setPanel(false); }} onClear={() => { setDraft([]); s.apply([]); setPanel(false); }} />}>
      <Badge count={s.applied.length} size="small"><Button icon={<FilterOutlined />} aria-label={t('listView.filter.title')}>{isPhone ? null : t('listView.filter.title')}</Button></Badge>
    </Popover>
  );
  const switcher = s.offered.length > 1 && <ModeSwitcher modes={s.offered} value={s.shownMode} onChange={s.setShownMode} compact={isPhone} />;
  const recordActions = (
    <>
      {view.actions.filter((a) => !isPhone || a.type !== 'Create').map(actionButton)}
      {may('changeOwner') && <ChangeOwnerButton schemaCode={schemaCode} objectIds={s.selected} onDone={() => { s.setSelected([]); void s.refresh(); }} />}
      <SmartActionButtons schemaCode={schemaCode} location="list" objectIds={s.selected} onDone={() => void s.refresh()} />
      <PrintButton canPrint={may('print')} schemaCode={schemaCode} formName={s.form.data?.definition.attributes.displayName ?? schemaCode} selected={s.selected}
        scope={{ viewCode: view.code, filter: s.config.filter, keyword: s.config.keyword }} />
      <DataPortButtons schemaCode={schemaCode} formName={s.form.data?.definition.attributes.displayName} nodeType={s.form.data?.schema.nodeType}
        scope={{ viewCode: view.code, filter: s.config.filter, keyword: s.config.keyword }} canImport={may('import')} canExport={may('export')} />
    </>
  );
  const viewTools = (
    <>
      <Dropdown trigger={['click']} popupRender={() => (
        <Flex vertical gap={4} style={{ padding: 8, background: 'var(--ant-color-bg-elevated, #fff)', boxShadow: '0 6px 16px rgba(0,0,0,.12)', borderRadius: 8, maxHeight: 360, overflow: 'auto' }}>
          {allColumns.map((c) => (
            <Checkbox key={c.code} checked={!s.work.fields || s.work.fields.includes(c.code)}
              onChange={(e) => { const shown = s.work.fields ?? allColumns.map((x) => x.code); s.setWork({ ...s.work, fields: e.target.checked ? allColumns.map((x) => x.code).filter((x) => x === c.code || shown.includes(x)) : shown.filter((x) => x !== c.code) }); }}>
              {c.title}
            </Checkbox>
          ))}
        </Flex>
      )}>
        <Button icon={<TableOutlined />}>{t('listView.columns')}</Button>
      </Dropdown>
      <Segmented aria-label={t('listView.rowHeight.label')} value={s.rowHeight} onChange={(v) => s.setWork({ ...s.work, rowHeight: Number(v) })}
        options={HEIGHTS.map((h) => ({ value: h, label: t(`listView.rowHeight.h${h}`), icon: h === RowHeight.Compact ? <ColumnHeightOutlined /> : undefined }))} />
      {s.current && <Button icon={<SaveOutlined />} onClick={() => void updateCurrent()}>{t('listView.personal.update')}</Button>}
      <Button icon={<SaveOutlined />} onClick={() => setNaming({ mode: 'add' })}>{t('listView.personal.saveAs')}</Button>
    </>
  );
  const createAction = view.actions.find((a) => a.type === 'Create');
  const shown = webModeOf(s.shownMode);
  const Runtime = shown.Runtime;
  const openRow = (row: { ObjectId: string }) => setOpen({ schemaCode, objectId: row.ObjectId, mode: 'View' });
  return (
    <Flex vertical gap="small" style={{ minWidth: 0 }}>
      <Flex align="center" gap="small">
        <div style={{ flex: 1, minWidth: 0 }}>
          <ViewTabs views={s.settings.data?.views ?? []} personal={s.personal} active={s.active} onActivate={(tab) => s.activate(tab)} onPersonal={(p, a) => void personal(p, a)} />
        </div>
        {s.settings.data?.canDesign && !isPhone && <Button icon={<SettingOutlined />} onClick={() => setDesigning(true)}>{t('listView.design')}</Button>}
      </Flex>
      {isPhone ? (
        // ui.md "Frames" (phone): search, filter and add stay; the rest is one tap away.
        <Flex gap="small" align="center" role="toolbar" aria-label={t('viewModes.switcher')}>
          {searchBox || <div style={{ flex: 1 }} />}
          {filterButton}
          {createAction && may('create') && <Button type="primary" icon={<PlusOutlined />} aria-label={createAction.title} onClick={() => setOpen({ schemaCode, mode: 'Create' })} />}
          <Popover trigger="click" placement="bottomRight" content={<Flex vertical gap="small" align="stretch" style={{ maxWidth: 'calc(100vw - 48px)' }}>{switcher}{recordActions}</Flex>}>
            <Button icon={<EllipsisOutlined />} aria-label={t('viewModes.phone.more')} />
          </Popover>
        </Flex>
      ) : (
        <Flex gap="small" wrap align="center">
          {recordActions}
          <div style={{ flex: 1 }} />
          {switcher}
          {searchBox}
          {filterButton}
          {shown.query === 'table' && viewTools}
        </Flex>
      )}
      {webModeOf(view.mode).query === 'none' && <Alert type="info" showIcon title={t('viewModes.notBuiltHint')} />}
      {s.shownMode === ViewMode.Hierarchy ? (
        <NamesProvider request={{ unitIds: [], objects: [] }}>
          <HierarchyTable key={view.code} schemaCode={schemaCode} view={view} columns={s.columns} rowHeight={s.rowHeight} definition={s.form.data?.definition} height={height}
            narrowing={{ schemaCode, viewCode: view.code, personalViewId: s.body.personalViewId, filter: s.body.filter, keyword: s.body.keyword, sort: s.body.sort }}
            onOpen={openRow} />
        </NamesProvider>
      ) : Runtime ? (
        <Suspense fallback={<Spin />}>
          <Runtime key={`${view.code}:${s.shownMode}`} schemaCode={schemaCode} view={view} shownAs={s.shownMode} definition={s.form.data?.definition} height={height}
            narrowing={{ schemaCode, viewCode: view.code, ...(s.body.personalViewId ? { personalViewId: s.body.personalViewId } : {}), filter: s.body.filter, keyword: s.body.keyword }}
            fields={[...s.columns, ...(s.header.data?.modeFields ?? []).filter((f) => !s.columns.some((c) => c.code === f.code))]}
            page={{ rows, total: s.data.data?.total ?? 0, loading: s.data.isFetching, index: s.page.index, size: s.page.size, onPage: s.setPage }}
            canCreate={may('create')} onOpen={openRow} onCreate={(initial, scene) => setOpen({ schemaCode, mode: 'Create', initial, scene })} />
        </Suspense>
      ) : (
      <NamesProvider request={{ unitIds: unitIdsOf(rows, s.columns), objects: [] }}>
        <RecordTable
          columns={s.columns} view={view} rowHeight={s.rowHeight} definition={s.form.data?.definition} rows={rows} total={s.data.data?.total ?? 0}
          loading={s.data.isFetching} sort={s.work.sort ?? view.sort} onSort={(sort) => { s.setWork({ ...s.work, sort: sort.length ? sort : undefined }); s.setPage(null); }}
          page={s.page} onPage={s.setPage} selected={s.selected} onSelect={s.setSelected} stats={s.data.data?.stats}
          onOpen={openRow} height={height}
        />
      </NamesProvider>
      )}
      <RuntimeFormModal open={open} device={device} onChange={setOpen} />
      <BatchEditDialog open={batch} schemaCode={schemaCode} viewCode={view.code} fields={allColumns} objectIds={s.selected} onClose={() => setBatch(false)} onDone={onBatchDone} />
      <TitleDialog open={naming !== null} title={naming?.mode === 'rename' ? t('listView.personal.rename') : t('listView.personal.saveAs')} initial={naming?.mode === 'rename' ? naming.title : ''}
        onCancel={() => setNaming(null)} onOk={saveTitle} />
      {designing && <ViewDesigner schemaCode={schemaCode} onClose={() => setDesigning(false)} onSaved={() => void s.refreshSettings()} />}
    </Flex>
  );
}
