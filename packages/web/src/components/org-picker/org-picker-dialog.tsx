import type { KeyboardEvent } from 'react';
import { App as AntApp, Flex, Input, Modal, Segmented, Tabs } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ORG_SCOPES, type OrgScope } from '@tritium/shared/constants/org';
import { PickerBrowseTree } from './picker-browse-tree.tsx';
import { PickerCandidateList } from './picker-candidate-list.tsx';
import { PickerSelection } from './picker-selection.tsx';
import type { PickedUnit, PickerCandidate, PickerKind } from './picker-types.ts';
import { useOrgPicker } from './use-org-picker.ts';

// contracts/org/fields.ts: Keyword is at most 50 characters.
const KEYWORD_MAX = 50;
const PANEL_HEIGHT = 360;

export interface OrgPickerDialogProps {
  open: boolean;
  kind: PickerKind;
  multiple: boolean;
  /** What is selected when the dialog opens. */
  value?: PickedUnit[];
  scope?: OrgScope;
  defaultScope?: OrgScope;
  max?: number;
  title?: string;
  onOk: (units: PickedUnit[]) => void;
  onCancel: () => void;
}

/**
 * The picker dialog every org picker opens (and buttons such as 添加成员 open directly): search, the tree, 最近使用,
 * the scope switch and the selection. Esc and 取消 close it without changing anything.
 */
export function OrgPickerDialog({ open, kind, multiple, value = [], scope, defaultScope, max, title, onOk, onCancel }: OrgPickerDialogProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const picker = useOrgPicker({ kind, multiple, open, initial: value, scope, defaultScope, max });
  const isSearching = picker.keyword.trim() !== '';
  const isUser = kind === 'user';

  const handleToggle = (unit: PickerCandidate) => {
    if (!picker.toggle(unit)) void message.warning(t('orgPicker.full', { max }));
  };

  // Enter in the search box takes the first match (type a name, press Enter); it never closes the dialog.
  const handleSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const first = picker.search.data?.[0];
    if (event.key !== 'Enter' || !first || picker.term !== picker.keyword.trim() || picker.search.isPlaceholderData) return;
    event.preventDefault();
    if (!picker.isSelected(first.id)) handleToggle(first);
  };

  const results = (
    <PickerCandidateList
      label={t('orgPicker.results')}
      kind={kind}
      items={picker.search.isError ? [] : picker.term === picker.keyword.trim() ? picker.search.data : undefined}
      emptyText={isUser ? t('orgPicker.noResultsUser') : t('orgPicker.noResultsDepartment')}
      isSelected={picker.isSelected}
      onToggle={handleToggle}
    />
  );
  const browse = (
    <Tabs
      size="small"
      items={[
        {
          key: 'tree',
          label: t('orgPicker.tabTree'),
          children: (
            <PickerBrowseTree kind={kind} scope={picker.scope} selectedIds={picker.selection.map((u) => u.id)} onToggle={handleToggle} />
          ),
        },
        {
          key: 'recent',
          label: t('orgPicker.tabRecent'),
          children: (
            <PickerCandidateList
              label={t('orgPicker.tabRecent')}
              kind={kind}
              items={picker.recent}
              emptyText={t('orgPicker.recentEmpty')}
              isSelected={picker.isSelected}
              onToggle={handleToggle}
            />
          ),
        },
      ]}
    />
  );

  return (
    <Modal
      open={open}
      title={title ?? (isUser ? t('orgPicker.titleUser') : t('orgPicker.titleDepartment'))}
      width={760}
      destroyOnHidden
      okText={t('orgPicker.ok')}
      cancelText={t('orgPicker.cancel')}
      onOk={() => onOk(picker.confirm())}
      onCancel={onCancel}
    >
      <Flex gap="middle" style={{ height: PANEL_HEIGHT + 96 }}>
        <Flex vertical gap="small" style={{ flex: 1, minWidth: 0 }}>
          <Input
            autoFocus
            allowClear
            prefix={<SearchOutlined aria-hidden />}
            aria-label={t('orgPicker.search')}
            placeholder={isUser ? t('orgPicker.searchPlaceholderUser') : t('orgPicker.searchPlaceholderDepartment')}
            maxLength={KEYWORD_MAX}
            value={picker.keyword}
            onChange={(event) => picker.setKeyword(event.target.value)}
            onKeyDown={handleSearchKey}
          />
          {!picker.isScopeFixed && (
            <Segmented<OrgScope>
              aria-label={t('orgPicker.scope')}
              style={{ alignSelf: 'flex-start' }}
              value={picker.scope}
              onChange={picker.setScope}
              options={ORG_SCOPES.map((s) => ({ value: s, label: t(`orgPicker.scopes.${s}`) }))}
            />
          )}
          <div style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>{isSearching ? results : browse}</div>
        </Flex>
        <PickerSelection selection={picker.selection} onRemove={picker.remove} onClear={picker.clear} />
      </Flex>
    </Modal>
  );
}
