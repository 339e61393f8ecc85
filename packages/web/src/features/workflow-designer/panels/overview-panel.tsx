import { Alert, Button, Flex, List, Popconfirm, Typography, theme } from 'antd';
import { CheckCircleOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Template, TemplateIssue } from '../model/template-model.ts';

interface Props {
  template: Template;
  issues: TemplateIssue[] | null;
  publishedVersion: number | null;
  onPick: (code: string) => void;
  /** Replaces the design with the latest published version (when there is one). */
  onLoadPublished?: () => void;
}

/** Nothing selected: the design's summary and the validator's issues, each leading to its node. */
export function OverviewPanel({ template, issues, publishedVersion, onPick, onLoadPublished }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const nameOf = (code: string) => template.activities.find((a) => a.code === code)?.name ?? code;
  return (
    <Flex vertical gap="small" style={{ padding: token.padding }}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('workflowDesigner.overview.title')}
      </Typography.Title>
      <Typography.Text type="secondary">
        {t('workflowDesigner.overview.counts', { activities: template.activities.length, routes: template.routes.length })}
      </Typography.Text>
      <Typography.Text type="secondary">{publishedVersion ? t('workflowDesigner.overview.published', { version: publishedVersion }) : t('workflowDesigner.overview.neverPublished')}</Typography.Text>
      <Typography.Text type="secondary">{t('workflowDesigner.overview.hint')}</Typography.Text>
      {onLoadPublished && publishedVersion ? (
        <Popconfirm title={t('workflowDesigner.overview.loadPublishedConfirm')} onConfirm={onLoadPublished}>
          <Button size="small" style={{ alignSelf: 'flex-start' }}>
            {t('workflowDesigner.overview.loadPublished', { version: publishedVersion })}
          </Button>
        </Popconfirm>
      ) : null}
      {issues === null ? null : issues.length === 0 ? (
        <Alert type="success" showIcon icon={<CheckCircleOutlined />} title={t('workflowDesigner.issues.none')} />
      ) : (
        <List
          size="small"
          header={
            <Typography.Text type="danger" strong>
              <WarningOutlined /> {t('workflowDesigner.issues.title', { count: issues.length })}
            </Typography.Text>
          }
          aria-label={t('workflowDesigner.issues.list')}
          dataSource={issues}
          renderItem={(issue) => (
            <List.Item
              extra={
                issue.activity ? (
                  <Button size="small" type="link" onClick={() => onPick(issue.activity!)}>
                    {nameOf(issue.activity)}
                  </Button>
                ) : undefined
              }
            >
              <Typography.Text>{issue.message}</Typography.Text>
            </List.Item>
          )}
        />
      )}
    </Flex>
  );
}
