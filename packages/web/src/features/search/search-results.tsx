import { Button, Empty, Flex, Skeleton, Typography, theme } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../apps/components/app-icon.tsx';
import { HighlightedText } from './highlighted-text.tsx';
import type { NodeSearchHit, RecordSearchGroup, RecordSearchHit } from './search-api.ts';

/** One choosable line of the results, in keyboard order: nodes first, then records by group. */
export type SearchItem = { kind: 'node'; id: string; node: NodeSearchHit } | { kind: 'record'; id: string; group: RecordSearchGroup; hit: RecordSearchHit };

export const optionId = (id: string) => `global-search-option-${id.replace(/[^\w-]/g, '_')}`;

/** The results in the order the arrow keys walk them. */
export function searchItems(nodes: readonly NodeSearchHit[], groups: readonly RecordSearchGroup[]): SearchItem[] {
  return [
    ...nodes.map((node): SearchItem => ({ kind: 'node', id: `n:${node.code}`, node })),
    ...groups.flatMap((group) => group.hits.map((hit): SearchItem => ({ kind: 'record', id: `r:${group.schemaCode}:${hit.objectId}`, group, hit }))),
  ];
}

interface ResultsProps {
  nodes: readonly NodeSearchHit[];
  groups: readonly RecordSearchGroup[];
  activeId: string | null;
  onChoose: (item: SearchItem) => void;
  onHover: (id: string) => void;
}

/** The list box of results: a section of nodes, then one section per app and form with its records. */
export function SearchResults({ nodes, groups, activeId, onChoose, onHover }: ResultsProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const items = searchItems(nodes, groups);
  const byId = new Map(items.map((item) => [item.id, item]));
  const option = (id: string, children: React.ReactNode, label: string) => {
    const active = id === activeId;
    return (
      <div
        key={id}
        id={optionId(id)}
        role="option"
        aria-selected={active}
        aria-label={label}
        onMouseEnter={() => onHover(id)}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => onChoose(byId.get(id)!)}
        style={{ padding: `${token.paddingXS}px ${token.paddingSM}px`, borderRadius: token.borderRadius, cursor: 'pointer', background: active ? token.controlItemBgActive : undefined }}
      >
        {children}
      </div>
    );
  };
  const heading = (text: string, key: string) => (
    <Typography.Text key={key} type="secondary" role="presentation" style={{ display: 'block', fontSize: token.fontSizeSM, padding: `${token.paddingXS}px ${token.paddingSM}px 2px` }}>
      {text}
    </Typography.Text>
  );
  return (
    <div role="listbox" id="global-search-results" aria-label={t('globalSearch.results')}>
      {nodes.length > 0 && heading(t('globalSearch.nodes'), 'nodes-heading')}
      {nodes.map((node) =>
        option(
          `n:${node.code}`,
          <Flex align="center" gap="small">
            <AppIcon node={node} size={20} />
            <Typography.Text ellipsis style={{ flex: 1 }}>
              <HighlightedText text={node.displayName} highlights={node.highlights} />
            </Typography.Text>
            {node.appCode !== node.code && <Typography.Text type="secondary" ellipsis style={{ maxWidth: '40%' }}>{node.appName}</Typography.Text>}
          </Flex>,
          node.displayName,
        ),
      )}
      {groups.map((group) => [
        heading(`${t('globalSearch.records')} · ${group.appName} / ${group.formName}`, `g:${group.schemaCode}`),
        ...group.hits.map((hit) =>
          option(
            `r:${group.schemaCode}:${hit.objectId}`,
            <Flex gap="small" align="start">
              <FileTextOutlined style={{ marginTop: 4, color: token.colorTextSecondary }} />
              <Flex vertical style={{ minWidth: 0, flex: 1 }}>
                <Typography.Text ellipsis strong>
                  {hit.fieldCode === 'Name' ? <HighlightedText text={hit.snippet.text} highlights={hit.snippet.highlights} /> : hit.title || t('globalSearch.untitled')}
                </Typography.Text>
                {hit.fieldCode !== 'Name' && (
                  <Typography.Text type="secondary" ellipsis style={{ fontSize: token.fontSizeSM }}>
                    {t('globalSearch.matchedIn', { field: hit.fieldName })}<HighlightedText text={hit.snippet.text} highlights={hit.snippet.highlights} />
                  </Typography.Text>
                )}
              </Flex>
            </Flex>,
            `${hit.title || t('globalSearch.untitled')} ${hit.snippet.text}`,
          ),
        ),
      ])}
    </div>
  );
}

/** What the body of the box shows besides results: a hint, a skeleton, nothing found, a failure. */
export function SearchStatus({ kind, keyword, min }: { kind: 'short' | 'loading' | 'empty' | 'failed'; keyword: string; min: number }) {
  const { t } = useTranslation();
  if (kind === 'loading') return <Skeleton active title={false} paragraph={{ rows: 3 }} style={{ padding: 12 }} />;
  if (kind === 'short') return <Typography.Text type="secondary" style={{ display: 'block', padding: 12 }}>{t('globalSearch.tooShort', { min })}</Typography.Text>;
  if (kind === 'failed') return <Typography.Text type="danger" role="alert" style={{ display: 'block', padding: 12 }}>{t('globalSearch.failed')}</Typography.Text>;
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('globalSearch.nothing', { keyword })} />;
}

export function LoadMore({ onClick, loading }: { onClick: () => void; loading: boolean }) {
  const { t } = useTranslation();
  return (
    <Flex justify="center" style={{ padding: 8 }}>
      <Button size="small" onClick={onClick} loading={loading}>{t('globalSearch.more')}</Button>
    </Flex>
  );
}
