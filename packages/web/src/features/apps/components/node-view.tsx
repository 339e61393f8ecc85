import { Button, Empty, Flex, Tag, Typography, theme } from 'antd';
import { ApartmentOutlined, EditOutlined, ExportOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FORM_DESIGNER_PATH, WORKFLOW_DESIGNER_PATH } from '@tritium/shared/constants/entry-routes';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { FunctionNodeDto } from '../api/apps-api.ts';
import { FORM_NODE_TYPES, nodePendingKey, nodeTypeKey } from '../node-types.ts';
import { AppIcon } from './app-icon.tsx';
import { ListView } from '../../list-view/components/list-view.tsx';
import { SingletonForm } from '../../form-runtime/components/singleton-form.tsx';
import { BoardView } from '../../dashboard/board-view.tsx';
import { DataSourceView } from '../../connector-ends/data-source-view.tsx';

/**
 * The open node: a form's list, a singleton form, a report's or dashboard's board, a custom link's address; the other
 * types say what they will hold until their screens exist.
 */
// Node types whose content is a board of widgets (issue 22).
const BOARD_NODE_TYPES: readonly number[] = [FunctionNodeType.ReportModule, FunctionNodeType.DashBoardModule];

export function NodeView({ node, canAdminister = false }: { node: FunctionNodeDto | undefined; canAdminister?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  if (!node) {
    return <Empty style={{ marginTop: token.marginXXL }} description={t('apps.view.nothing')} />;
  }
  const isLink = node.nodeType === FunctionNodeType.CustomLinkModule;
  return (
    <Flex vertical gap="middle" style={{ height: '100%' }}>
      <Flex align="center" gap="small">
        <AppIcon node={node} size={28} />
        <Typography.Title level={4} style={{ margin: 0 }}>
          {node.displayName}
        </Typography.Title>
        <Tag>{t(nodeTypeKey(node.nodeType))}</Tag>
        {node.state === 'Disabled' && <Tag color="default">{t('apps.view.disabled')}</Tag>}
        {canAdminister && FORM_NODE_TYPES.includes(node.nodeType) && (
          <Button icon={<EditOutlined />} style={{ marginLeft: 'auto' }} onClick={() => navigate(`${FORM_DESIGNER_PATH}?schemaCode=${encodeURIComponent(node.code)}`)}>
            {t('apps.view.design')}
          </Button>
        )}
        {canAdminister && node.nodeType === FunctionNodeType.WorkflowModule && (
          <Button icon={<ApartmentOutlined />} onClick={() => navigate(`${WORKFLOW_DESIGNER_PATH}?schemaCode=${encodeURIComponent(node.code)}`)}>
            {t('workflowDesigner.entry')}
          </Button>
        )}
      </Flex>
      {isLink && node.url ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <Flex vertical gap="small" align="center">
              <Typography.Text>{t('apps.view.linkIntro')}</Typography.Text>
              <Typography.Text type="secondary" copyable>
                {node.url}
              </Typography.Text>
            </Flex>
          }
        >
          <Button type="primary" icon={<ExportOutlined />} href={node.url} target="_blank" rel="noopener noreferrer">
            {t('apps.view.openLink')}
          </Button>
        </Empty>
      ) : node.nodeType === FunctionNodeType.SingletonModule ? (
        <SingletonForm key={node.code} schemaCode={node.code} />
      ) : FORM_NODE_TYPES.includes(node.nodeType) ? (
        <ListView key={node.code} schemaCode={node.code} />
      ) : BOARD_NODE_TYPES.includes(node.nodeType) ? (
        <BoardView key={node.code} code={node.code} />
      ) : node.nodeType === FunctionNodeType.DataSourceModule ? (
        <DataSourceView key={node.code} code={node.code} />
      ) : (
        <Empty style={{ marginTop: token.marginXL }} description={t(nodePendingKey(node.nodeType))} />
      )}
    </Flex>
  );
}
