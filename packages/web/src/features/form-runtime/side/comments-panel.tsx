import { useId, useRef, useState } from 'react';
import { Alert, Button, Empty, Flex, Input, Popconfirm, Skeleton, Tag, Typography, theme } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { PaperClipOutlined, UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FORM_COMMENT_MAX_LENGTH } from '@tritium/shared/constants/limits';
import type { FileRef } from '@tritium/shared/controls/values';
import { isApiError } from '../../../lib/api-error.ts';
import { useFileUrls } from '../api/upload.ts';
import { UploadButton } from '../fields/upload-button.tsx';
import { useFileUploads } from '../fields/use-file-uploads.ts';
import { OrgPickerDialog, type PickedUnit } from '../../../components/org-picker/index.ts';
import type { CommentDto } from './sns-api.ts';
import { useCommentActions, useComments } from './use-record-side.ts';
import { formatDateTime } from '../../../lib/date-format.ts';

// The comments of a record (评论, form attribute enableFormSNS; docs/decisions/0009): newest first, each with its
// replies under it, a box to write (up to 2000 characters), 回复 on every comment and 删除 where the server says
// the person may (the comment's author or an administrator of the app).

interface CommentItemProps {
  comment: CommentDto;
  onReply: (comment: CommentDto) => void;
  onRemove: (comment: CommentDto) => void;
  isRemoving: boolean;
}

function CommentItem({ comment, onReply, onRemove, isRemoving }: CommentItemProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const urls = useFileUrls(comment.files.map((file) => file.id));
  return (
    <Flex vertical gap={2}>
      <Flex gap="small" align="baseline" wrap>
        <Typography.Text strong>{comment.authorName}</Typography.Text>
        {comment.replyToAuthorName && <Typography.Text type="secondary">{t('formRuntimeSide.comments.replyTo', { name: comment.replyToAuthorName })}</Typography.Text>}
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          <time dateTime={comment.createdTime}>{formatDateTime(comment.createdTime)}</time>
        </Typography.Text>
      </Flex>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{comment.text}</Typography.Paragraph>
      {comment.files.length > 0 && (
        <Flex gap={4} wrap aria-label={t('formRuntimeSide.comments.files')}>
          {comment.files.map((file) => (
            <Tag key={file.id} icon={<PaperClipOutlined />}>
              {urls[file.id] ? (
                <Typography.Link href={urls[file.id]} target="_blank" rel="noopener noreferrer">
                  {file.name}
                </Typography.Link>
              ) : (
                file.name
              )}
            </Tag>
          ))}
        </Flex>
      )}
      <Flex gap={4}>
        <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => onReply(comment)}>
          {t('formRuntimeSide.comments.reply')}
        </Button>
        {comment.canRemove && (
          <Popconfirm
            title={t('formRuntimeSide.comments.removeConfirm')}
            okText={t('formRuntimeSide.comments.remove')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true, loading: isRemoving }}
            onConfirm={() => onRemove(comment)}
          >
            <Button type="link" size="small" danger>
              {t('formRuntimeSide.comments.remove')}
            </Button>
          </Popconfirm>
        )}
      </Flex>
    </Flex>
  );
}

export function CommentsPanel({ schemaCode, objectId }: { schemaCode: string; objectId: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const comments = useComments(schemaCode, objectId);
  const actions = useCommentActions(schemaCode, objectId);
  const [text, setText] = useState('');
  const [replyingTo, setReplyingTo] = useState<CommentDto | null>(null);
  const [files, setFiles] = useState<FileRef[] | null>(null);
  // People picked with @: they are told of the comment if their @name is still in the text when it is sent.
  const [mentioned, setMentioned] = useState<PickedUnit[]>([]);
  const [picking, setPicking] = useState(false);
  const uploads = useFileUploads({ value: files, onChange: setFiles, scene: 'sns' });
  const uploadId = useId();
  const inputRef = useRef<TextAreaRef>(null);

  if (comments.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (comments.isError) {
    const message = isApiError(comments.error) ? comments.error.errorMessage : t('formRuntimeSide.comments.unavailable');
    return <Alert type="info" showIcon title={message} />;
  }

  const threads = comments.data.pages.flatMap((page) => page.list);
  const count = comments.data.pages[0]?.count ?? 0;
  const isSending = actions.add.isPending || actions.reply.isPending;
  const trimmed = text.trim();

  const handleReply = (comment: CommentDto) => {
    setReplyingTo(comment);
    inputRef.current?.focus();
  };
  const handleSend = () => {
    if (!trimmed) return;
    const done = { onSuccess: () => (setText(''), setReplyingTo(null), setFiles(null), setMentioned([])) };
    const mentionIds = mentioned.filter((u) => trimmed.includes(`@${u.name}`)).map((u) => u.id);
    const attached = { ...(files?.length ? { fileIds: files.map((file) => file.id) } : {}), ...(mentionIds.length ? { mentionIds } : {}) };
    if (replyingTo) actions.reply.mutate({ replyTo: replyingTo.snsId, text: trimmed, ...attached }, done);
    else actions.add.mutate({ text: trimmed, ...attached }, done);
  };
  const item = (comment: CommentDto) => (
    <CommentItem
      comment={comment}
      onReply={handleReply}
      onRemove={(c) => actions.remove.mutate(c.snsId, { onSuccess: () => replyingTo?.snsId === c.snsId && setReplyingTo(null) })}
      isRemoving={actions.remove.isPending && actions.remove.variables === comment.snsId}
    />
  );

  return (
    <Flex vertical gap="middle">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('formRuntimeSide.comments.title', { count })}
      </Typography.Title>
      <Flex vertical gap="small">
        {replyingTo && (
          <Tag
            closable
            onClose={(event) => (event.preventDefault(), setReplyingTo(null))}
            closeIcon={<span aria-label={t('formRuntimeSide.comments.cancelReply')}>×</span>}
            style={{ alignSelf: 'flex-start' }}
          >
            {t('formRuntimeSide.comments.replyTo', { name: replyingTo.authorName })}
          </Tag>
        )}
        <Input.TextArea
          ref={inputRef}
          aria-label={t('formRuntimeSide.comments.input')}
          placeholder={replyingTo ? t('formRuntimeSide.comments.replyPlaceholder', { name: replyingTo.authorName }) : t('formRuntimeSide.comments.placeholder')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          maxLength={FORM_COMMENT_MAX_LENGTH}
          showCount
          rows={3}
        />
        {(files ?? []).length > 0 && (
          <Flex gap={4} wrap aria-label={t('formRuntimeSide.comments.pendingFiles')}>
            {(files ?? []).map((file) => (
              <Tag key={file.id} icon={<PaperClipOutlined />} closable onClose={() => uploads.remove(file.id)}>
                {file.name}
              </Tag>
            ))}
          </Flex>
        )}
        {uploads.errors.map((error) => (
          <Typography.Text key={error} type="danger">
            {error}
          </Typography.Text>
        ))}
        <Flex justify="space-between" align="center" style={{ marginTop: token.marginXS }}>
          <Flex gap="small">
            <UploadButton id={uploadId} label={t('formRuntimeSide.comments.attach')} icon={<PaperClipOutlined />} loading={uploads.uploading} onFiles={(picked) => void uploads.handleFiles(picked)} />
            <Button icon={<UserAddOutlined />} onClick={() => setPicking(true)}>
              {t('formRuntimeSide.comments.mention')}
            </Button>
          </Flex>
          <Button type="primary" disabled={!trimmed || uploads.uploading} loading={isSending} onClick={handleSend}>
            {replyingTo ? t('formRuntimeSide.comments.sendReply') : t('formRuntimeSide.comments.send')}
          </Button>
        </Flex>
      </Flex>
      <OrgPickerDialog
        open={picking}
        kind="user"
        multiple
        max={20}
        title={t('formRuntimeSide.comments.mentionTitle')}
        onCancel={() => setPicking(false)}
        onOk={(units) => {
          setPicking(false);
          const added = units.filter((u) => !mentioned.some((m) => m.id === u.id));
          setMentioned([...mentioned, ...added]);
          setText((current) => `${current}${current && !current.endsWith(' ') ? ' ' : ''}${added.map((u) => `@${u.name} `).join('')}`);
          inputRef.current?.focus();
        }}
      />
      {threads.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('formRuntimeSide.comments.empty')} />
      ) : (
        <ul aria-label={t('formRuntimeSide.comments.list')} style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: token.marginMD }}>
          {threads.map((thread) => (
            <li key={thread.snsId}>
              {item(thread)}
              {thread.replies.length > 0 && (
                <ul
                  aria-label={t('formRuntimeSide.comments.replies', { name: thread.authorName })}
                  style={{ listStyle: 'none', margin: `${token.marginXS}px 0 0`, padding: `0 0 0 ${token.paddingMD}px`, borderInlineStart: `2px solid ${token.colorBorderSecondary}`, display: 'flex', flexDirection: 'column', gap: token.marginSM }}
                >
                  {thread.replies.map((reply) => (
                    <li key={reply.snsId}>{item(reply)}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {comments.hasNextPage && (
        <Button onClick={() => void comments.fetchNextPage()} loading={comments.isFetchingNextPage}>
          {t('formRuntimeSide.comments.loadMore')}
        </Button>
      )}
    </Flex>
  );
}
