import { Button, Flex, Tag, Typography, theme } from 'antd';
import { ApartmentOutlined, ArrowLeftOutlined, CloudUploadOutlined, ExperimentOutlined, SaveOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

interface Props {
  formName: string;
  dirty: boolean;
  issueCount: number | null;
  publishedVersion: number | null;
  saving: boolean;
  publishing: boolean;
  onBack: () => void;
  onIssues: () => void;
  onLayout: () => void;
  onDryRun: () => void;
  onSave: () => void;
  onPublish: () => void;
}

/** The workflow designer's top bar: form name, save and publish state, 自动排列, 试运行, 保存, 发布. */
export function DesignerHeader(p: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex
      component="header"
      align="center"
      justify="space-between"
      gap="middle"
      style={{ height: 56, padding: `0 ${token.padding}px`, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
    >
      <Flex align="center" gap="small" style={{ minWidth: 0 }}>
        <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('workflowDesigner.back')} onClick={p.onBack} />
        <Typography.Title level={4} ellipsis style={{ margin: 0 }}>
          {t('workflowDesigner.title', { name: p.formName })}
        </Typography.Title>
        <Typography.Text type={p.dirty ? 'warning' : 'secondary'} role="status" aria-label={t('workflowDesigner.saveState.label')}>
          {t(p.dirty ? 'workflowDesigner.saveState.dirty' : 'workflowDesigner.saveState.saved')}
        </Typography.Text>
        <Tag color={p.publishedVersion ? 'green' : 'default'}>{p.publishedVersion ? t('workflowDesigner.version', { version: p.publishedVersion }) : t('workflowDesigner.neverPublished')}</Tag>
        {p.issueCount ? (
          <Button size="small" danger type="text" icon={<WarningOutlined />} onClick={p.onIssues}>
            {t('workflowDesigner.issues.title', { count: p.issueCount })}
          </Button>
        ) : null}
      </Flex>
      <Flex gap="small">
        <Button icon={<ApartmentOutlined />} onClick={p.onLayout}>
          {t('workflowDesigner.layout')}
        </Button>
        <Button icon={<ExperimentOutlined />} onClick={p.onDryRun}>
          {t('workflowDesigner.dryRun.open')}
        </Button>
        <Button icon={<SaveOutlined />} loading={p.saving} onClick={p.onSave}>
          {t('workflowDesigner.save')}
        </Button>
        <Button type="primary" icon={<CloudUploadOutlined />} loading={p.publishing} onClick={p.onPublish}>
          {t('workflowDesigner.publish')}
        </Button>
      </Flex>
    </Flex>
  );
}
