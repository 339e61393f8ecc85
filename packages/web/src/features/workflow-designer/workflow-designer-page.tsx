import { Button, Flex, Result, Skeleton, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error.ts';
import { workflowDesignApi, workflowDesignKeys } from './api/workflow-design-api.ts';
import { WorkflowDesigner } from './components/workflow-designer.tsx';
import { DesignerAppContext } from '../form-designer/options/form-picker.tsx';
import type { FieldInfo } from './model/design-context.ts';
import { autoLayout, emptyTemplate, readTemplate } from './model/template-model.ts';

function LoadProblem({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = isApiError(error) ? error.status : 0;
  const back = (
    <Button key="back" type="primary" onClick={() => navigate('/workbench')}>
      {t('workflowDesigner.backToWorkbench')}
    </Button>
  );
  const kind = status === 403 ? '403' : status === 404 ? '404' : 'error';
  return (
    <Result
      status={kind}
      title={t(`workflowDesigner.load.${kind === 'error' ? 'failed' : kind === '403' ? 'forbidden' : 'notFound'}`)}
      subTitle={isApiError(error) ? error.errorMessage : undefined}
      extra={kind === 'error' ? [back, <Button key="retry" onClick={onRetry}>{t('common.retry')}</Button>] : back}
    />
  );
}

/** /workflow/designer?schemaCode=<code>: the approval flow of one workflow form. */
export function WorkflowDesignerPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [params] = useSearchParams();
  const schemaCode = params.get('schemaCode') ?? '';
  const load = useQuery({ queryKey: workflowDesignKeys.load(schemaCode), queryFn: () => workflowDesignApi.load(schemaCode), enabled: !!schemaCode, retry: false, staleTime: Infinity });
  const form = useQuery({ queryKey: workflowDesignKeys.form(schemaCode), queryFn: () => workflowDesignApi.form(schemaCode), enabled: !!schemaCode && load.isSuccess, retry: false });
  if (!schemaCode) return <Result status="404" title={t('workflowDesigner.load.notFound')} />;
  const error = load.error ?? form.error;
  if (error) return <LoadProblem error={error} onRetry={() => void (load.refetch(), form.refetch())} />;
  if (!load.data || !form.data) {
    return (
      <Flex vertical style={{ height: '100vh' }}>
        <Skeleton.Input active block style={{ height: 56 }} />
        <Flex gap="middle" style={{ flex: 1, padding: token.padding }}>
          <Skeleton active paragraph={{ rows: 8 }} style={{ width: 160 }} />
          <Skeleton active paragraph={{ rows: 12 }} style={{ flex: 1 }} />
          <Skeleton active paragraph={{ rows: 8 }} style={{ width: 320 }} />
        </Flex>
      </Flex>
    );
  }
  const published = readTemplate(load.data.published);
  const stored = readTemplate(load.data.draft) ?? published;
  const initial = stored
    ? stored.activities.every((a) => a.position)
      ? stored
      : autoLayout(stored)
    : emptyTemplate({ start: t('workflowDesigner.types.Start'), end: t('workflowDesigner.types.End') });
  const fields: FieldInfo[] = form.data.schema.properties.filter((p) => !p.isSystem).map((p) => ({ code: p.name, name: p.displayName, typeKey: p.typeKey }));
  // The form's app: a child flow's form is offered from it first.
  return (
    <DesignerAppContext.Provider value={{ appCode: form.data.schema.appCode }}>
      <WorkflowDesigner key={schemaCode} schemaCode={schemaCode} formName={form.data.schema.displayName} fields={fields} initial={initial} publishedVersion={load.data.publishedVersion} published={published} />
    </DesignerAppContext.Provider>
  );
}
