import { Button, Card, Flex, Result, Skeleton, Tooltip, theme } from 'antd';
import { MenuUnfoldOutlined } from '@ant-design/icons';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@tritium/shared/errors/catalogue';
import { FORM_DESIGNER_PATH } from '@tritium/shared/constants/entry-routes';
import { usePaneFolds } from '../../../lib/pane-folds.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { FunctionTree } from '../components/function-tree.tsx';
import { NodeView } from '../components/node-view.tsx';
import { useAdminAppCodes, useAppTree } from '../hooks/use-apps.ts';
import { useAppActions } from '../hooks/use-app-actions.tsx';
import { useRecordVisit } from '../hooks/use-record-visit.ts';
import { isFormNode } from '../node-types.ts';

/** /workbench/app/:appCode[/:nodeCode] on PC: the app's function tree and the open node (the default one at first). */
export function AppPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const { appCode, nodeCode } = useParams();
  const { tree, error, isPending } = useAppTree(appCode);
  const { administers } = useAdminAppCodes();
  const { folds, toggle } = usePaneFolds();
  const actions = useAppActions({
    // A new form is empty: its designer is the next step.
    onCreated: (node) => navigate(isFormNode(node) ? `${FORM_DESIGNER_PATH}?schemaCode=${encodeURIComponent(node.code)}` : `/workbench/app/${node.appCode}/${node.code}`),
    onRemoved: (node) => node.code === nodeCode && navigate(`/workbench/app/${appCode}`),
  });
  const openCode = nodeCode ?? tree?.defaultSchemaCode ?? undefined;
  useRecordVisit(tree?.app ? (nodeCode ?? appCode) : undefined);

  if (error) {
    const notFound = isApiError(error) && error.errorCode === ERRORS.FunctionNodeNotFound.code;
    return (
      <Result
        status={notFound ? '404' : 'error'}
        title={notFound ? t('apps.view.notFound') : t('apps.view.loadFailed')}
        extra={<Button onClick={() => navigate('/workbench')}>{t('apps.view.backHome')}</Button>}
      />
    );
  }
  if (isPending || !tree) return <Skeleton active paragraph={{ rows: 8 }} />;
  const canAdminister = administers(tree.app?.code ?? '');
  return (
    <Flex gap="middle" align="stretch" style={{ minHeight: '100%' }}>
      {folds.functionTree ? (
        <Tooltip title={t('apps.tree.unfold')} placement="right">
          <Button aria-label={t('apps.tree.unfold')} icon={<MenuUnfoldOutlined />} style={{ flex: 'none', alignSelf: 'flex-start' }} onClick={() => toggle('functionTree')} />
        </Tooltip>
      ) : (
        <Card size="small" style={{ width: 280, flex: 'none' }} styles={{ body: { padding: token.paddingXS } }}>
          <FunctionTree
            key={tree.app?.code}
            onFold={() => toggle('functionTree')}
            tree={tree}
            selectedCode={openCode}
            canAdminister={canAdminister}
            onCreate={(nodeType, parentCode) => actions.createNode(nodeType, tree, parentCode)}
            onRename={actions.edit}
            onMove={(node) => actions.move(node, tree)}
            onToggleState={(node) => void actions.toggleState(node)}
            onRemove={actions.remove}
            onDrop={(node, parentCode, preCode) => void actions.dropNode(node, parentCode, preCode)}
          />
        </Card>
      )}
      <Card style={{ flex: 1, minWidth: 0 }}>
        <NodeView node={openCode ? tree.byCode.get(openCode) : undefined} canAdminister={canAdminister} />
      </Card>
      {actions.dialogs}
    </Flex>
  );
}
