import { useState } from 'react';
import { App, Button, Drawer, Empty, Flex, List, Skeleton, Typography, theme } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/date-format.ts';
import { codeEditorApi, codeKeys, type CodeLanguage, type CodeOwner, type CodePart, type CodeVersionDto } from './code-editor-api.ts';
import { lineDiff } from './line-diff.ts';

// 版本: every save of a part with its author and time; a chosen version compared line by line with the code in the
// editor; 回滚 (asked first: unsaved changes are lost) saves the old code as a new version.

interface VersionsDrawerProps {
  owner: CodeOwner;
  part: CodePart;
  /** The code in the editor now. */
  current: string;
  onRolledBack: (version: number, source: string, language: CodeLanguage) => void;
  onClose: () => void;
}

export function VersionsDrawer({ owner, part, current, onRolledBack, onClose }: VersionsDrawerProps) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const [compared, setCompared] = useState<number | null>(null);
  const versions = useQuery({ queryKey: codeKeys.versions(owner, part), queryFn: () => codeEditorApi.versions(owner, part) });
  const chosen = useQuery({ queryKey: [...codeKeys.versions(owner, part), compared], queryFn: () => codeEditorApi.version(owner, part, compared!), enabled: compared !== null });
  const rollback = useMutation({
    mutationFn: async (version: number) => ({ saved: await codeEditorApi.rollback(owner, part, version), old: await codeEditorApi.version(owner, part, version) }),
    onSuccess: ({ saved, old }) => {
      void message.success(t('codeEditor.versions.rolledBack', { version: saved.version }));
      onRolledBack(saved.version, old.source, old.language);
      void queryClient.invalidateQueries({ queryKey: codeKeys.versions(owner, part) });
      setCompared(null);
    },
  });
  const confirmRollback = (v: CodeVersionDto) =>
    modal.confirm({
      title: t('codeEditor.versions.rollbackTitle', { version: v.version }),
      content: t('codeEditor.versions.rollbackContent', { version: v.version }),
      okText: t('codeEditor.versions.rollback'),
      onOk: () => rollback.mutateAsync(v.version),
    });
  const list = versions.data?.list ?? [];
  return (
    <Drawer open title={t('codeEditor.versions.title')} size={compared === null ? 420 : 900} onClose={onClose}>
      <Flex gap="middle" align="start">
        <div style={{ width: 360, flex: '0 0 360px' }}>
          {versions.isLoading ? (
            <Skeleton active />
          ) : list.length === 0 ? (
            <Empty description={t('codeEditor.versions.empty')} />
          ) : (
            <List
              aria-label={t('codeEditor.versions.title')}
              dataSource={list}
              renderItem={(v) => (
                <List.Item
                  actions={[
                    <Button key="compare" size="small" type={compared === v.version ? 'primary' : 'default'} aria-label={`${t('codeEditor.versions.compare')} ${t('codeEditor.versions.version', { version: v.version })}`}
                      onClick={() => setCompared(v.version)}>{t('codeEditor.versions.compare')}</Button>,
                    <Button key="rollback" size="small" aria-label={`${t('codeEditor.versions.rollback')} ${t('codeEditor.versions.version', { version: v.version })}`}
                      onClick={() => confirmRollback(v)}>{t('codeEditor.versions.rollback')}</Button>,
                  ]}
                >
                  <List.Item.Meta
                    title={
                      <Flex gap="small" align="baseline">
                        <span>{t('codeEditor.versions.version', { version: v.version })}</span>
                        <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 12 }}>{t('codeEditor.versions.size', { size: v.size })}</Typography.Text>
                      </Flex>
                    }
                    description={`${v.authorName ?? '--'} · ${formatDateTime(v.createdTime)}`}
                  />
                </List.Item>
              )}
            />
          )}
        </div>
        {compared !== null && (
          <div style={{ flex: 1, minWidth: 0 }}>
            <Typography.Title level={5}>{t('codeEditor.versions.diffTitle', { version: compared })}</Typography.Title>
            {chosen.data ? <DiffView before={chosen.data.source} after={current} /> : <Skeleton active />}
          </div>
        )}
      </Flex>
    </Drawer>
  );
}

/** The old version's lines against the editor's: removed lines red with "-", added lines green with "+". */
function DiffView({ before, after }: { before: string; after: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const lines = lineDiff(before, after);
  if (lines.every((l) => l.kind === 'same')) return <Typography.Text type="secondary">{t('codeEditor.versions.same')}</Typography.Text>;
  const look = {
    same: { mark: ' ', background: undefined, label: undefined },
    added: { mark: '+', background: token.colorSuccessBg, label: t('codeEditor.versions.added') },
    removed: { mark: '-', background: token.colorErrorBg, label: t('codeEditor.versions.removed') },
  } as const;
  return (
    <pre role="list" aria-label={t('codeEditor.versions.diffTitle', { version: '' }).trim()} style={{ fontSize: 12, margin: 0, maxHeight: 'calc(100vh - 180px)', overflow: 'auto', border: `1px solid ${token.colorBorderSecondary}` }}>
      {lines.map((line, i) => (
        <div key={i} role="listitem" aria-label={look[line.kind].label} data-kind={line.kind}
          style={{ background: look[line.kind].background, paddingInline: 'calc(8px + 2ch) 8px', textIndent: '-2ch', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {look[line.kind].mark} {line.text}
        </div>
      ))}
    </pre>
  );
}
