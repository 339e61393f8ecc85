import { Button, Flex, Layout, Result, Skeleton, Tabs, Typography, theme } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FORM_DESIGNER_PATH } from '@tritium/shared/constants/entry-routes';
import { isApiError } from '../../lib/api-error.ts';
import { codeEditorApi, codeKeys, type CodeLoadResult, type CodeOwner, type CodePart } from './code-editor-api.ts';
import { CodePane } from './code-pane.tsx';
import { BizLogPanel } from './biz-log-panel.tsx';
import { InvokeHelp } from './invoke-help.tsx';
import { ScriptLimitsButton } from './script-limits-button.tsx';

// The code pages (issue 43; docs/decisions/0118): a form's 后端代码, 前端代码 and 运行日志 (/form/code/:schemaCode, from
// the form designer's top bar) and an app's 自定义接口 with its 运行日志 (/app/code/:appCode, from the app's menu).

function CodeFrame({ title, onBack, children }: { title: string; onBack: () => void; children: React.ReactNode }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex component="header" align="center" gap="small"
        style={{ minHeight: 56, padding: `8px ${token.padding}px`, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
        <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('codeEditor.back')} onClick={onBack} />
        <Typography.Title level={4} ellipsis style={{ margin: 0, flex: 1, minWidth: 0 }}>{title}</Typography.Title>
        <ScriptLimitsButton />
      </Flex>
      <Layout.Content style={{ padding: `0 ${token.padding}px`, minWidth: 0, background: token.colorBgContainer }}>{children}</Layout.Content>
    </Layout>
  );
}

function useCode(owner: { appCode?: string; schemaCode?: string }) {
  return useQuery({ queryKey: codeKeys.load(owner), queryFn: () => codeEditorApi.load(owner), staleTime: Infinity, gcTime: 0 });
}

function partTab(loaded: CodeLoadResult, owner: CodeOwner, part: CodePart, label: string) {
  const initial = loaded.parts.find((p) => p.part === part)!;
  const pane = <CodePane owner={owner} initial={initial} canDryRun={part === 'form-server'} />;
  // The app's custom APIs say how an outside system calls them.
  return { key: part, label, children: part === 'app-api' ? <><InvokeHelp appCode={loaded.appCode} />{pane}</> : pane };
}

function LoadProblem({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return <Result status="warning" title={isApiError(error) ? error.errorMessage : t('codeEditor.loadFailed')} />;
}

/** /form/code/:schemaCode */
export function FormCodePage() {
  const { schemaCode = '' } = useParams();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const code = useCode({ schemaCode });
  if (code.error) return <LoadProblem error={code.error} />;
  if (!code.data) return <Skeleton active style={{ padding: 24 }} />;
  const loaded = code.data;
  const owner: CodeOwner = { appCode: loaded.appCode, schemaCode };
  return (
    <CodeFrame title={t('codeEditor.formTitle', { form: loaded.formName ?? schemaCode })} onBack={() => navigate(`${FORM_DESIGNER_PATH}?schemaCode=${encodeURIComponent(schemaCode)}`)}>
      <Tabs
        items={[
          partTab(loaded, owner, 'form-server', t('codeEditor.tabs.server')),
          partTab(loaded, owner, 'form-browser', t('codeEditor.tabs.browser')),
          { key: 'log', label: t('codeEditor.tabs.log'), children: <BizLogPanel appCode={loaded.appCode} schemaCode={schemaCode} /> },
        ]}
      />
    </CodeFrame>
  );
}

/** /app/code/:appCode */
export function AppCodePage() {
  const { appCode = '' } = useParams();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const code = useCode({ appCode });
  if (code.error) return <LoadProblem error={code.error} />;
  if (!code.data) return <Skeleton active style={{ padding: 24 }} />;
  const loaded = code.data;
  const owner: CodeOwner = { appCode: loaded.appCode };
  return (
    <CodeFrame title={t('codeEditor.appTitle', { app: loaded.appName })} onBack={() => navigate(`/workbench/app/${encodeURIComponent(appCode)}`)}>
      <Tabs
        items={[
          partTab(loaded, owner, 'app-api', t('codeEditor.appEntry')),
          { key: 'log', label: t('codeEditor.tabs.log'), children: <BizLogPanel appCode={loaded.appCode} /> },
        ]}
      />
    </CodeFrame>
  );
}
