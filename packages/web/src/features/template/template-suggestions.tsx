import { useState } from 'react';
import { Button, Card, Flex, Skeleton, Typography, theme } from 'antd';
import { AppstoreOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { templateApi, templateKeys, type TemplateDto } from './template-api.ts';
import { TemplateCard } from './template-card.tsx';
import { TemplateDetailDrawer } from './template-detail-drawer.tsx';
import { InstallProgressDialog } from './install-progress-dialog.tsx';

const SHOWN = 4;
const QUERY = { source: 'all', pageIndex: 0, pageSize: SHOWN } as const;

/** A new organisation's empty workbench: a few templates to install at once, and the way to the template center. */
export function TemplateSuggestions() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const list = useQuery({ queryKey: templateKeys.list(QUERY), queryFn: () => templateApi.list(QUERY) });
  const [opened, setOpened] = useState<TemplateDto | null>(null);
  const [installing, setInstalling] = useState<{ actionId: string; name: string } | null>(null);
  return (
    <Card title={t('templates.suggest.title')} extra={<Button type="link" icon={<AppstoreOutlined />} onClick={() => navigate('/templates')}>{t('templates.suggest.more')}</Button>}>
      <Typography.Paragraph type="secondary">{list.data?.list.length === 0 ? t('templates.suggest.empty') : t('templates.suggest.intro')}</Typography.Paragraph>
      {!list.data ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Flex gap={token.padding} wrap>
          {list.data.list.map((template) => (
            <div key={template.id} style={{ width: 260 }}>
              <TemplateCard template={template} onOpen={setOpened} />
            </div>
          ))}
        </Flex>
      )}
      <TemplateDetailDrawer
        template={opened}
        onClose={() => setOpened(null)}
        onInstalling={(actionId, template) => {
          setOpened(null);
          setInstalling({ actionId, name: template.name });
        }}
      />
      <InstallProgressDialog
        actionId={installing?.actionId}
        templateName={installing?.name ?? ''}
        onClose={() => setInstalling(null)}
        onOpenApp={(appCode) => {
          void queries.invalidateQueries({ queryKey: ['apps'] });
          navigate(`/workbench/app/${encodeURIComponent(appCode)}`);
        }}
      />
    </Card>
  );
}
