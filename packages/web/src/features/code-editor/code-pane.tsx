import { useCallback, useRef, useState } from 'react';
import { Alert, App, Button, Flex, List, Segmented, Tag, Typography } from 'antd';
import { BugOutlined, HistoryOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { codeEditorApi, codeKeys, type CodeDiagnostic, type CodeLanguage, type CodeOwner, type CodePartDto } from './code-editor-api.ts';
import { ScriptEditor } from './script-editor.tsx';
import { VersionsDrawer } from './versions-drawer.tsx';
import { DryRunDrawer } from './dry-run-drawer.tsx';

// One part of the code (后端代码, 前端代码 or 自定义接口): the editor, its language, 保存 from the version it was loaded
// at (a save after someone else's is refused and says so), the versions with a diff and a roll back, the dry run.

/** The page's header, tabs and tool row above the editor; one problem's row under it. */
const EDITOR_OFFSET = 230;
const PROBLEM_ROW = 40;

export interface CodePaneProps {
  owner: CodeOwner;
  initial: CodePartDto;
  /** Server parts of a form: the dry run is offered. */
  canDryRun?: boolean;
}

export function CodePane({ owner, initial, canDryRun }: CodePaneProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [source, setSource] = useState(initial.source);
  const [language, setLanguage] = useState<CodeLanguage>(initial.language);
  const [saved, setSaved] = useState({ version: initial.version, source: initial.source, language: initial.language, author: initial.authorName, time: initial.updatedTime });
  const [problems, setProblems] = useState<CodeDiagnostic[] | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [isVersionsOpen, setVersionsOpen] = useState(false);
  const [isDryRunOpen, setDryRunOpen] = useState(false);
  const last = useRef<CodeDiagnostic[]>([]);
  const partName = t(`codeEditor.parts.${initial.part}`);
  const isDirty = source !== saved.source || language !== saved.language;

  const check = useCallback(
    async (text: string) => {
      try {
        last.current = (await codeEditorApi.check({ ...owner, part: initial.part, language, source: text })).diagnostics;
      } catch {
        // No answer (connection, a 777 on an oversized source): the last marks stand.
      }
      return last.current;
    },
    [owner, initial.part, language],
  );

  /** A new version's author and time as the server keeps them, read with the versions (which a save changed). */
  const showAuthorOf = (version: number) => {
    queryClient
      .fetchQuery({ queryKey: codeKeys.versions(owner, initial.part), queryFn: () => codeEditorApi.versions(owner, initial.part), staleTime: 0 })
      .then(({ list }) => {
        const mine = list.find((v) => v.version === version);
        if (mine) setSaved((s) => (s.version === version ? { ...s, author: mine.authorName, time: mine.createdTime } : s));
      })
      .catch(() => undefined);
  };

  const save = useMutation({
    mutationFn: () => codeEditorApi.save({ ...owner, part: initial.part, language, source, baseVersion: saved.version }),
    onSuccess: (result) => {
      setSaved({ version: result.version, source, language, author: null, time: result.updatedTime });
      setSaveError(null);
      void message.success(t('codeEditor.saved', { version: result.version }));
      showAuthorOf(result.version);
    },
    onError: (error) => setSaveError(isApiError(error) ? error.errorMessage : t('codeEditor.saveFailed')),
  });

  /** A roll back saved an old source as a new version: the editor shows it. */
  const handleRolledBack = (version: number, text: string, lang: CodeLanguage) => {
    setSource(text);
    setLanguage(lang);
    setSaved({ version, source: text, language: lang, author: null, time: new Date().toISOString() });
    setSaveError(null);
    showAuthorOf(version);
  };

  const errors = problems?.filter((p) => p.severity === 'error').length ?? 0;
  // The first problems under the editor, which gives up their room so that they stay in view.
  const shownProblems = (problems ?? []).slice(0, 5);
  return (
    <Flex vertical gap="small">
      <Flex align="center" gap="small" wrap>
        <Segmented<CodeLanguage> aria-label={t('codeEditor.language')} value={language} onChange={setLanguage}
          options={[{ label: 'TypeScript', value: 'ts' }, { label: 'JavaScript', value: 'js' }]} />
        <Typography.Text type="secondary" style={{ flex: 1, minWidth: 0 }} ellipsis>
          {saved.version === 0
            ? t('codeEditor.neverSaved')
            : t('codeEditor.versionInfo', { version: saved.version, author: saved.author ?? '--', time: formatDateTime(saved.time) })}
          {isDirty && <Tag color="orange" style={{ marginInlineStart: 8 }}>{t('codeEditor.unsaved')}</Tag>}
        </Typography.Text>
        {problems && (
          <Tag color={errors ? 'red' : 'green'} role="status">{errors ? t('codeEditor.problems', { count: problems.length }) : t('codeEditor.noProblems')}</Tag>
        )}
        {canDryRun && <Button icon={<BugOutlined />} onClick={() => setDryRunOpen(true)}>{t('codeEditor.dryRun.open')}</Button>}
        <Button icon={<HistoryOutlined />} onClick={() => setVersionsOpen(true)}>{t('codeEditor.versions.open')}</Button>
        <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={() => save.mutate()}>{t('codeEditor.save')}</Button>
      </Flex>
      {saveError && <Alert type="error" showIcon title={saveError} closable onClose={() => setSaveError(null)} />}
      <ScriptEditor value={source} onChange={setSource} part={initial.part} language={language} check={check} onDiagnostics={setProblems}
        ariaLabel={t('codeEditor.editorLabel', { part: partName })} height={`calc(100vh - ${EDITOR_OFFSET + shownProblems.length * PROBLEM_ROW}px)`} />
      {shownProblems.length > 0 && (
        <section aria-label={t('codeEditor.problemList')}>
          <List size="small" dataSource={shownProblems} renderItem={(p) => (
            <List.Item>
              <Typography.Text type={p.severity === 'error' ? 'danger' : 'warning'}>{t('codeEditor.problemAt', { line: p.line, column: p.column, message: p.message })}</Typography.Text>
            </List.Item>
          )} />
        </section>
      )}
      {isVersionsOpen && (
        <VersionsDrawer owner={owner} part={initial.part} current={source} onRolledBack={handleRolledBack} onClose={() => setVersionsOpen(false)} />
      )}
      {isDryRunOpen && owner.schemaCode && <DryRunDrawer schemaCode={owner.schemaCode} source={source} language={language} onClose={() => setDryRunOpen(false)} />}
    </Flex>
  );
}
