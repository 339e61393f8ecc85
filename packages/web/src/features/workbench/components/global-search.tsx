import { useDeferredValue, useState } from 'react';
import { AutoComplete, Flex, Input, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { appKeys, appsApi } from '../../apps/api/apps-api.ts';
import { AppIcon } from '../../apps/components/app-icon.tsx';
import { useAppList } from '../../apps/hooks/use-apps.ts';
import { nodeTypeKey } from '../../apps/node-types.ts';
import { nodePath } from '../home/recent-activity.tsx';

const KEYWORD_MAX = 50;

/** The top bar's search: apps and nodes by name or code (POST /list/bykeyword); picking one opens it. */
export function GlobalSearch({ width = 280 }: { width?: number | string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword.trim());
  const apps = useAppList();
  const found = useQuery({
    queryKey: appKeys.search(deferred),
    queryFn: () => appsApi.searchNodes(deferred),
    enabled: deferred.length > 0,
    staleTime: 10_000,
  });
  const appName = (code: string) => apps.data?.list.find((app) => app.code === code)?.displayName ?? '';
  const options = (deferred ? (found.data?.list ?? []) : []).map((node) => ({
    value: node.code,
    node,
    label: (
      <Flex align="center" gap="small">
        <AppIcon node={node} size={20} />
        <Typography.Text ellipsis style={{ flex: 1 }}>
          {node.displayName}
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis>
          {node.appCode === node.code ? t(nodeTypeKey(node.nodeType)) : appName(node.appCode)}
        </Typography.Text>
      </Flex>
    ),
  }));
  return (
    <AutoComplete
      value={keyword}
      options={options}
      style={{ width }}
      onChange={setKeyword}
      onSelect={(_, option) => {
        setKeyword('');
        navigate(nodePath(option.node));
      }}
      notFoundContent={deferred && found.isSuccess ? t('workbench.search.nothing') : undefined}
    >
      <Input allowClear maxLength={KEYWORD_MAX} prefix={<SearchOutlined />} placeholder={t('workbench.search.placeholder')} aria-label={t('workbench.search.label')} />
    </AutoComplete>
  );
}
