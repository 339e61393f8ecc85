import { useState } from 'react';
import { Alert, Button, Flex, Layout, Result, Skeleton, Typography, theme } from 'antd';
import { ArrowLeftOutlined, HistoryOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AUTOMATIONS_MAX } from '@tritium/shared/automation/index';
import { FORM_DESIGNER_PATH } from '@tritium/shared/constants/entry-routes';
import { isApiError } from '../../lib/api-error.ts';
import { DesignerAppContext } from '../form-designer/options/form-picker.tsx';
import { automationApi, automationKeys, type AutomationDto } from './automation-api.ts';
import { AutomationList } from './automation-list.tsx';
import { AutomationDesigner } from './designer/automation-designer.tsx';
import { RunLogDrawer } from './run-log/run-log-drawer.tsx';
import { useAutomationForm } from './use-automation-form.ts';

type Editing = { automation?: AutomationDto } | null;
type Logging = { automation?: { id: string; name: string } } | null;

/** /form/automation/:schemaCode — a form's automations (issue 21): the list, the designer, the run log. */
export function AutomationPage() {
  const { schemaCode = '' } = useParams();
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { form, error } = useAutomationForm(schemaCode);
  const list = useQuery({ queryKey: automationKeys.list(schemaCode), queryFn: () => automationApi.list(schemaCode), enabled: !!form });
  const [editing, setEditing] = useState<Editing>(null);
  const [logging, setLogging] = useState<Logging>(null);
  if (error) return <Result status="warning" title={isApiError(error) ? error.errorMessage : t('automation.loadFailed')} />;
  if (!form) return <Skeleton active style={{ padding: token.paddingLG }} />;
  const automations = list.data?.automations ?? [];
  const isFull = automations.length >= AUTOMATIONS_MAX;
  return (
    <DesignerAppContext.Provider value={{ appCode: form.appCode, schemaCode }}>
      <Layout style={{ minHeight: '100vh' }}>
        <Flex component="header" align="center" gap="small" wrap
          style={{ minHeight: 56, padding: `8px ${token.padding}px`, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('automation.back')} onClick={() => navigate(`${FORM_DESIGNER_PATH}?schemaCode=${encodeURIComponent(schemaCode)}`)} />
          <Typography.Title level={4} ellipsis style={{ margin: 0, flex: '1 1 160px', minWidth: 0 }}>{t('automation.title', { form: form.name })}</Typography.Title>
          <Flex gap="small">
            <Button icon={<HistoryOutlined />} onClick={() => setLogging({})}>{t('automation.runLog')}</Button>
            <Button type="primary" icon={<PlusOutlined />} disabled={!form.isPublished || isFull} onClick={() => setEditing({})}>{t('automation.add')}</Button>
          </Flex>
        </Flex>
        <Layout.Content style={{ padding: token.padding, minWidth: 0 }}>
          {!form.isPublished && <Alert type="warning" showIcon title={t('automation.notPublished')} style={{ marginBottom: token.margin }} />}
          {list.isError ? (
            <Result status="warning" title={t('automation.loadFailed')} extra={<Button onClick={() => void list.refetch()}>{t('common.retry')}</Button>} />
          ) : (
            <AutomationList form={form} automations={automations} isLoading={list.isLoading} onAdd={() => setEditing({})}
              onEdit={(automation) => setEditing({ automation })} onLog={(a) => setLogging({ automation: { id: a.id, name: a.name } })} />
          )}
        </Layout.Content>
      </Layout>
      {editing && (
        <AutomationDesigner key={editing.automation?.id ?? 'new'} form={form} initial={editing.automation}
          defaultName={t('automation.designer.defaultName', { n: automations.length + 1 })} onClose={() => setEditing(null)} />
      )}
      {logging && <RunLogDrawer schemaCode={schemaCode} automation={logging.automation} onClose={() => setLogging(null)} />}
    </DesignerAppContext.Provider>
  );
}
