import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Flex, Input, Modal, Typography, theme, type InputRef } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SEARCH_KEYWORD_MAX, SEARCH_KEYWORD_MIN } from '@tritium/shared/contracts/search/index';
import { useIsPhone } from '../../lib/use-is-phone.ts';
import { isSearchable, nodeSearchPath, recordSearchPath, useDebounced, useGlobalSearch } from './search-api.ts';
import { LoadMore, SearchResults, SearchStatus, optionId, searchItems, type SearchItem } from './search-results.tsx';

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** Ctrl+K (⌘K on a Mac) anywhere on the page. */
function useOpenShortcut(open: () => void) {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
}

/**
 * The top bar's search (ui.md "Frames", issue 20): a box that opens the search dialog, also with Ctrl+K / ⌘K. The
 * dialog searches nodes and records together; ↑/↓ move through the results (nodes first), Enter opens one, Esc closes.
 */
export function SearchBox({ width = 280 }: { width?: number | string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [open, setOpen] = useState(false);
  // A phone has no keyboard shortcut to hint at.
  const isPhone = useIsPhone();
  const keys = isMac() ? '⌘K' : 'Ctrl+K';
  useOpenShortcut(() => setOpen(true));
  return (
    <>
      <Button
        onClick={() => setOpen(true)}
        aria-label={t('globalSearch.label')}
        aria-keyshortcuts={isPhone ? undefined : 'Control+K Meta+K'}
        aria-haspopup="dialog"
        style={{ width, justifyContent: 'flex-start', color: token.colorTextPlaceholder }}
        icon={<SearchOutlined />}
      >
        <Flex justify="space-between" style={{ flex: 1, minWidth: 0 }}>
          <Typography.Text type="secondary" ellipsis>{t('globalSearch.trigger')}</Typography.Text>
          {!isPhone && <Typography.Text keyboard type="secondary" title={t('globalSearch.shortcut', { keys })}>{keys}</Typography.Text>}
        </Flex>
      </Button>
      {open && <SearchDialog showKeyHint={!isPhone} onClose={() => setOpen(false)} />}
    </>
  );
}

function SearchDialog({ showKeyHint, onClose }: { showKeyHint: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const settled = useDebounced(keyword.trim());
  const search = useGlobalSearch(settled);
  const nodes = search.nodes.data?.list ?? [];
  const items = searchItems(nodes, search.groups);
  const [activeId, setActiveId] = useState<string | null>(null);
  const inputRef = useRef<InputRef>(null);
  // The dialog takes the focus when it opens; the keyword box takes it back so typing goes straight in.
  const focusInput = () => inputRef.current?.focus({ preventScroll: true });
  useEffect(() => {
    const timer = setTimeout(focusInput);
    return () => clearTimeout(timer);
  }, []);
  const active = items.find((i) => i.id === activeId) ?? items[0];

  useEffect(() => {
    if (active) document.getElementById(optionId(active.id))?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const choose = (item: SearchItem) => {
    onClose();
    navigate(item.kind === 'node' ? nodeSearchPath(item.node) : recordSearchPath(item.group.schemaCode, item.hit.objectId));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!items.length) return;
      const at = active ? items.indexOf(active) : -1;
      const next = e.key === 'ArrowDown' ? (at + 1) % items.length : (at - 1 + items.length) % items.length;
      setActiveId(items[next]!.id);
    } else if (e.key === 'Enter' && active) {
      e.preventDefault();
      choose(active);
    }
  };

  const typing = keyword.trim() !== settled;
  const loading = search.enabled && (search.nodes.isLoading || search.records.isLoading);
  const failed = search.nodes.isError || search.records.isError;
  const status = !isSearchable(keyword) ? 'short' : typing || loading ? 'loading' : failed ? 'failed' : !items.length ? 'empty' : null;

  return (
    <Modal open onCancel={onClose} footer={null} closable={false} title={null} width={640} styles={{ body: { padding: 0 } }} destroyOnHidden afterOpenChange={(isOpen) => isOpen && focusInput()} aria-label={t('globalSearch.label')}>
      <Input
        ref={inputRef}
        autoFocus
        size="large"
        variant="borderless"
        prefix={<SearchOutlined />}
        value={keyword}
        maxLength={SEARCH_KEYWORD_MAX}
        placeholder={t('globalSearch.placeholder')}
        aria-label={t('globalSearch.inputLabel')}
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls="global-search-results"
        aria-activedescendant={active ? optionId(active.id) : undefined}
        onChange={(e) => {
          setKeyword(e.target.value);
          setActiveId(null);
        }}
        onKeyDown={onKeyDown}
      />
      <div style={{ maxHeight: '60vh', overflowY: 'auto', borderTop: `1px solid ${token.colorBorderSecondary}`, padding: token.paddingXXS }}>
        {status ? (
          <SearchStatus kind={status} keyword={settled} min={SEARCH_KEYWORD_MIN} />
        ) : (
          <>
            <SearchResults nodes={nodes} groups={search.groups} activeId={active?.id ?? null} onChoose={choose} onHover={setActiveId} />
            {search.records.hasNextPage && <LoadMore loading={search.records.isFetchingNextPage} onClick={() => void search.records.fetchNextPage()} />}
          </>
        )}
      </div>
      {showKeyHint && (
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: token.fontSizeSM, padding: `${token.paddingXS}px ${token.paddingSM}px`, borderTop: `1px solid ${token.colorBorderSecondary}` }}>
          {t('globalSearch.hint')}
        </Typography.Text>
      )}
    </Modal>
  );
}
