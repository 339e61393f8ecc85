import { useState } from 'react';
import { Button, Empty, Flex, Input, Pagination, Segmented, Skeleton, Tag, Typography, theme } from 'antd';
import { AppstoreOutlined, ArrowLeftOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { contracts } from '@tritium/shared';
import { templateApi, templateKeys, type TemplateDto, type TemplateSource } from './template-api.ts';
import { TemplateCard } from './template-card.tsx';
import { TemplateDetailDrawer } from './template-detail-drawer.tsx';
import { InstallProgressDialog } from './install-progress-dialog.tsx';

const PAGE_SIZE = 20;

/** /templates (模板中心, docs/decisions/0131): sources, categories and search; a card opens the detail, 安装 installs. */
export function TemplateMarketPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [source, setSource] = useState<TemplateSource>('all');
  const [category, setCategory] = useState<string | undefined>();
  const [keyword, setKeyword] = useState('');
  const [pageIndex, setPageIndex] = useState(0);
  const [opened, setOpened] = useState<TemplateDto | null>(null);
  const [installing, setInstalling] = useState<{ actionId: string; name: string } | null>(null);
  const query = { source, category: category as contracts.TemplateListQuery['category'], keyword: keyword || undefined, pageIndex, pageSize: PAGE_SIZE };
  const list = useQuery({ queryKey: templateKeys.list(query), queryFn: () => templateApi.list(query), placeholderData: keepPreviousData });
  const counts = new Map(list.data?.categories.map((c) => [c.category, c.count]));
  const choose = (next: () => void) => {
    next();
    setPageIndex(0);
  };
  const openApp = (appCode: string) => {
    void queries.invalidateQueries({ queryKey: ['apps'] });
    void queries.invalidateQueries({ queryKey: templateKeys.all });
    navigate(`/workbench/app/${encodeURIComponent(appCode)}`);
  };
  return (
    <Flex vertical gap="middle" style={{ padding: token.paddingLG, maxWidth: 1280, margin: '0 auto' }}>
      <Flex justify="space-between" align="center" wrap gap="small">
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            <AppstoreOutlined /> {t('templates.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('templates.intro')}</Typography.Text>
        </div>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/workbench')}>
          {t('templates.back')}
        </Button>
      </Flex>
      <Flex justify="space-between" align="center" wrap gap="small">
        <Segmented<TemplateSource>
          value={source}
          onChange={(value) => choose(() => setSource(value))}
          options={contracts.TEMPLATE_SOURCES.map((value) => ({ value, label: t(`templates.sources.${value}`) }))}
        />
        <Input.Search allowClear placeholder={t('templates.search')} aria-label={t('templates.search')} style={{ width: 280 }} onSearch={(value) => choose(() => setKeyword(value.trim()))} />
      </Flex>
      <Flex gap={4} wrap role="group" aria-label={t('templates.allCategories')}>
        <Tag.CheckableTag checked={!category} onChange={() => choose(() => setCategory(undefined))}>
          {t('templates.allCategories')}
        </Tag.CheckableTag>
        {contracts.TEMPLATE_CATEGORIES.map((name) => (
          <Tag.CheckableTag key={name} checked={category === name} onChange={() => choose(() => setCategory(category === name ? undefined : name))}>
            {name} {counts.get(name) ?? 0}
          </Tag.CheckableTag>
        ))}
      </Flex>
      {!list.data ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : list.data.list.length === 0 ? (
        <Empty description={t(source === 'shared' ? 'templates.emptyShared' : 'templates.empty')} />
      ) : (
        <ul aria-label={t('templates.title')} style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: token.padding, listStyle: 'none', margin: 0, padding: 0 }}>
          {list.data.list.map((template) => (
            <li key={template.id}>
              <TemplateCard template={template} onOpen={setOpened} />
            </li>
          ))}
        </ul>
      )}
      {(list.data?.total ?? 0) > PAGE_SIZE && (
        <Pagination align="end" current={pageIndex + 1} pageSize={PAGE_SIZE} total={list.data!.total} showSizeChanger={false} onChange={(page) => setPageIndex(page - 1)} />
      )}
      <TemplateDetailDrawer
        template={opened}
        onClose={() => setOpened(null)}
        onInstalling={(actionId, template) => {
          setOpened(null);
          setInstalling({ actionId, name: template.name });
        }}
      />
      <InstallProgressDialog actionId={installing?.actionId} templateName={installing?.name ?? ''} onOpenApp={openApp} onClose={() => setInstalling(null)} />
    </Flex>
  );
}
