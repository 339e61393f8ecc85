import { useEffect, useState } from 'react';
import { App, Button, Flex, Input, Menu, Modal, Segmented, Select, Spin, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RowHeight, ViewScope } from '@tritium/shared/constants/views';
import { isApiError } from '../../../lib/api-error.ts';
import { listViewApi, listViewKeys, type ViewField, type ViewSetting } from '../api/list-view-api.ts';
import { ColumnsSection, ListSection } from './designer-sections.tsx';
import { StyleRulesSection } from './style-rules-section.tsx';
import { FixedFilterSection, ViewModeSection } from './view-kind-sections.tsx';
import { modeSettingsComplete } from '../modes/settings-panel.tsx';

const SCOPES = Object.values(ViewScope);
const PAGE_SIZES = [10, 20, 50, 100, 200, 500] as const;

function newView(fields: ViewField[], n: number): ViewSetting {
  return {
    code: `View${Date.now().toString(36)}${n}`, title: '', mode: 0, scope: ViewScope.ViewAll, rowHeight: RowHeight.Common,
    columns: fields.slice(0, 5).map((f) => ({ field: f.code })), sort: [], filters: [], quickSearch: [], stats: [], actions: [], styleRules: [], pageSize: 50,
  };
}

/** The view designer (administrators of the app): every view of the form, saved together in their order. */
export function ViewDesigner({ schemaCode, onClose, onSaved }: { schemaCode: string; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const load = useQuery({ queryKey: listViewKeys.designer(schemaCode), queryFn: () => listViewApi.designerLoad(schemaCode), gcTime: 0 });
  const [views, setViews] = useState<ViewSetting[] | null>(null);
  const [index, setIndex] = useState(0);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (load.data && views === null) setViews(load.data.views.map((v) => ({ ...v, title: v.title })));
  }, [load.data, views]);
  const fields = load.data?.fields ?? [];
  const view = views?.[index];
  const set = (patch: Partial<ViewSetting>) => setViews((list) => list!.map((v, i) => (i === index ? { ...v, ...patch } : v)));
  const save = async () => {
    if (!views) return;
    setSaving(true);
    try {
      await listViewApi.designerSave(schemaCode, views);
      message.success(t('listView.designer.saved'));
      onSaved();
      onClose();
    } catch (error) {
      const issues = isApiError(error) ? ((error.detail as { issues?: { path: string; message: string }[] } | undefined)?.issues ?? []) : [];
      message.error(issues.length ? issues.map((i) => i.message).join('；') : isApiError(error) ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open width={1000} title={t('listView.designer.title')} onCancel={onClose} onOk={() => void save()} okText={t('listView.designer.save')} okButtonProps={{ loading: saving, disabled: !views?.every((v) => v.title.trim() && (v.mode !== 6 || v.parentField) && modeSettingsComplete(v)) }}
      styles={{ body: { height: '65vh', overflow: 'hidden' } }} destroyOnHidden>
      {!views || !view ? <Spin /> : (
        <Flex gap="middle" style={{ height: '100%' }}>
          <Flex vertical gap="small" style={{ width: 180, flex: 'none' }}>
            <Menu selectedKeys={[String(index)]} onClick={({ key }) => setIndex(Number(key))} items={views.map((v, i) => ({ key: String(i), label: v.title || t('listView.designer.untitled') }))} style={{ borderInlineEnd: 'none' }} />
            <Button icon={<PlusOutlined />} onClick={() => { setViews([...views, newView(fields, views.length)]); setIndex(views.length); }}>{t('listView.designer.addView')}</Button>
            <Button danger icon={<DeleteOutlined />} disabled={views.length < 2} onClick={() => { setViews(views.filter((_, i) => i !== index)); setIndex(0); }}>{t('listView.designer.removeView')}</Button>
          </Flex>
          <Flex vertical gap="middle" style={{ flex: 1, minWidth: 0, overflow: 'auto', paddingInlineEnd: 8 }}>
            <Flex gap="small" wrap align="center">
              <Typography.Text>{t('listView.designer.viewTitle')}</Typography.Text>
              <Input aria-label={t('listView.designer.viewTitle')} value={view.title} maxLength={50} style={{ width: 200 }} onChange={(e) => set({ title: e.target.value })} status={view.title.trim() ? undefined : 'error'} />
              <Typography.Text>{t('listView.designer.scope')}</Typography.Text>
              <Select aria-label={t('listView.designer.scope')} value={view.scope} style={{ width: 140 }} onChange={(scope: number) => set({ scope })} options={SCOPES.map((v) => ({ value: v, label: t(`listView.scope.s${v}`) }))} />
              <Typography.Text>{t('listView.designer.pageSize')}</Typography.Text>
              <Select aria-label={t('listView.designer.pageSize')} value={view.pageSize} style={{ width: 90 }} onChange={(pageSize: ViewSetting['pageSize']) => set({ pageSize })} options={PAGE_SIZES.map((v) => ({ value: v, label: String(v) }))} />
            </Flex>
            <Flex gap="small" align="center">
              <Typography.Text>{t('listView.rowHeight.label')}</Typography.Text>
              <Segmented value={view.rowHeight} onChange={(v) => set({ rowHeight: Number(v) })} options={Object.values(RowHeight).map((h) => ({ value: h, label: `${t(`listView.rowHeight.h${h}`)} ${h}` }))} />
            </Flex>
            <ViewModeSection schemaCode={schemaCode} view={view} fields={fields} onChange={set} modesOff={load.data?.modesOff} />
            <ColumnsSection view={view} fields={fields} onChange={set} />
            <ListSection view={view} fields={fields} onChange={set} />
            <FixedFilterSection key={view.code} schemaCode={schemaCode} view={view} fields={fields} onChange={set} />
            <StyleRulesSection view={view} fields={fields} onChange={set} />
          </Flex>
        </Flex>
      )}
    </Modal>
  );
}
