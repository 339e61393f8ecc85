import { useRef, useState } from 'react';
import { Button, Drawer, Flex, Input, Typography, theme } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { contracts } from '@tritium/shared';
import { ApiError } from '../../lib/api-error.ts';
import { getEngineCode } from '../../lib/session.ts';
import { aiKeys, streamChat } from './ai-api.ts';
import { stashDraft } from './record-drafts.ts';

type Citation = { schemaCode: string; objectId: string; title: string };
/** A record drafted in the turn: its form's name and the address of the new-record page that fills itself with it. */
type Drafted = { formName: string; href: string; count: number };
type Turn = contracts.ChatMessage & { stopped?: boolean; failed?: boolean; tools?: string[]; citations?: Citation[]; drafts?: Drafted[] };
const TOOL_NAMES = ['list_forms', 'describe_form', 'find_records', 'aggregate', 'draft_record'] as const;

/**
 * The assistant's conversation (docs/decisions/0124): the answer appears as the model writes it (server-sent events),
 * can be stopped, and the conversation is kept in the drawer (sent with each question). Enter sends.
 */
export function AssistantDrawer({ open, onClose, userId }: { open: boolean; onClose: () => void; userId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [text, setText] = useState('');
  const running = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);

  const setLast = (change: (turn: Turn) => Turn) => setTurns((all) => [...all.slice(0, -1), change(all.at(-1)!)]);

  async function send() {
    const message = text.trim();
    if (!message || busy) return;
    const history = turns.filter((turn) => !turn.failed).map(({ role, content }) => ({ role, content }));
    setTurns((all) => [...all, { role: 'user', content: message }, { role: 'assistant', content: '' }]);
    setText('');
    setBusy(true);
    const abort = new AbortController();
    running.current = abort;
    try {
      const body = { engineCode: getEngineCode() ?? '', userId, sceneId: 'assistant', message, history };
      for await (const event of streamChat(body, abort.signal)) {
        if (event.event === 'delta') setLast((turn) => ({ ...turn, content: turn.content + event.data.content }));
        else if (event.event === 'tool') setLast((turn) => ({ ...turn, tools: [...new Set([...(turn.tools ?? []), event.data.name])] }));
        else if (event.event === 'cite') setLast((turn) => ({ ...turn, citations: [...(turn.citations ?? []), ...event.data.citations] }));
        else if (event.event === 'draft') {
          // A link to the form's new-record page, filled with the draft for the person to check and save (docs/decisions/0126).
          const href = stashDraft(event.data);
          setLast((turn) => ({ ...turn, drafts: [...(turn.drafts ?? []), { formName: event.data.formName, href, count: event.data.filled.length }] }));
        }
        else if (event.event === 'error') setLast((turn) => ({ ...turn, content: event.data.message, failed: true }));
      }
    } catch (error) {
      if (abort.signal.aborted) setLast((turn) => ({ ...turn, stopped: true }));
      else setLast((turn) => ({ ...turn, content: error instanceof ApiError ? error.errorMessage : turn.content, failed: true }));
    } finally {
      running.current = null;
      setBusy(false);
      // The credit moved: the top bar's button hides itself once it is used up.
      void queryClient.invalidateQueries({ queryKey: aiKeys.status });
    }
  }

  return (
    <Drawer
      title={t('ai.assistant.title')}
      open={open}
      onClose={onClose}
      width={480}
      extra={
        <Button size="small" disabled={busy || !turns.length} onClick={() => setTurns([])}>
          {t('ai.assistant.clear')}
        </Button>
      }
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: token.margin } }}
    >
      <Flex vertical gap="middle" style={{ flex: 1, overflowY: 'auto' }} data-testid="assistant-turns">
        {!turns.length && <Typography.Text type="secondary">{t('ai.assistant.empty')}</Typography.Text>}
        {turns.map((turn, index) => (
          <Flex key={index} justify={turn.role === 'user' ? 'flex-end' : 'flex-start'}>
            <div
              data-testid={turn.role === 'user' ? 'turn-user' : 'turn-assistant'}
              style={{
                maxWidth: '85%',
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-word',
                padding: `${token.paddingXS}px ${token.paddingSM}px`,
                borderRadius: token.borderRadiusLG,
                background: turn.role === 'user' ? token.colorPrimaryBg : token.colorFillTertiary,
                color: turn.failed ? token.colorError : undefined,
              }}
            >
              {!!turn.tools?.length && (
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: token.fontSizeSM }}>
                  {t('ai.assistant.toolsUsed', { tools: turn.tools.map((name) => ((TOOL_NAMES as readonly string[]).includes(name) ? t(`ai.assistant.tools.${name as (typeof TOOL_NAMES)[number]}`) : name)).join('、') })}
                </Typography.Text>
              )}
              {turn.content}
              {turn.drafts?.map((d) => (
                <Button key={d.href} size="small" type="primary" ghost href={d.href} target="_blank" style={{ display: 'block', marginTop: token.marginXS, width: 'fit-content' }} data-testid="turn-draft">
                  {t('ai.draft.open', { form: d.formName, count: d.count })}
                </Button>
              ))}
              {turn.stopped && <Typography.Text type="secondary"> {t('ai.assistant.stopped')}</Typography.Text>}
              {!!turn.citations?.length && (
                <Flex vertical gap={2} style={{ marginTop: token.marginXS }} data-testid="turn-citations">
                  <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                    {t('ai.assistant.cited')}
                  </Typography.Text>
                  {turn.citations.map((c) => (
                    <Typography.Link key={c.objectId} href={`/form/open/${encodeURIComponent(c.schemaCode)}/${encodeURIComponent(c.objectId)}`} target="_blank" style={{ fontSize: token.fontSizeSM }}>
                      {c.title}
                    </Typography.Link>
                  ))}
                </Flex>
              )}
            </div>
          </Flex>
        ))}
      </Flex>
      <Flex gap="small" align="flex-end">
        <Input.TextArea
          aria-label={t('ai.assistant.placeholder')}
          placeholder={t('ai.assistant.placeholder')}
          autoSize={{ minRows: 1, maxRows: 5 }}
          maxLength={8000}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onPressEnter={(event) => {
            if (event.shiftKey) return;
            event.preventDefault();
            void send();
          }}
        />
        {busy ? (
          <Button danger onClick={() => running.current?.abort()}>
            {t('ai.assistant.stop')}
          </Button>
        ) : (
          <Button type="primary" disabled={!text.trim()} onClick={() => void send()}>
            {t('ai.assistant.send')}
          </Button>
        )}
      </Flex>
    </Drawer>
  );
}
