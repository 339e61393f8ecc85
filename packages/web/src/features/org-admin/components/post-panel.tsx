import { useState } from 'react';
import { Button, Card, Empty, Flex, Menu, Skeleton, theme } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { orgAdminApi, orgKeys, type PostDto } from '../api/org-admin-api.ts';
import { useRemoveConfirm } from '../hooks/use-remove-confirm.ts';
import { NameDialog } from './name-dialog.tsx';
import { CountedName, MembersCard, RenameRemoveMenu } from './unit-panel-parts.tsx';

// contracts/org/fields.ts: RoleName (posts share it)
const POST_NAME_MAX = 32;

/** 岗位: the posts on the left, the selected post's holders on the right. */
export function PostPanel() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const confirmRemove = useRemoveConfirm();
  const posts = useQuery({ queryKey: orgKeys.posts, queryFn: orgAdminApi.listPosts });
  const [selectedId, setSelectedId] = useState<string>();
  const [editing, setEditing] = useState<{ post?: PostDto }>();
  const selected = posts.data?.list.find((p) => p.id === selectedId);

  const label = (post: PostDto) => (
    <Flex align="center" justify="space-between" gap="small">
      <CountedName name={post.name} count={post.memberCount} />
      <RenameRemoveMenu
        name={post.name}
        onRename={() => setEditing({ post })}
        onRemove={() =>
          confirmRemove({
            title: t('orgAdmin.post.removeTitle', { name: post.name }),
            content: t('orgAdmin.post.removeContent', { count: post.memberCount }),
            remove: () => orgAdminApi.removePost(post.id),
            onRemoved: () => setSelectedId(undefined),
          })
        }
      />
    </Flex>
  );

  return (
    <Flex gap="middle" align="start">
      <Card
        size="small"
        title={t('orgAdmin.post.title')}
        style={{ width: 280, flex: 'none' }}
        styles={{ body: { padding: token.paddingXS } }}
        extra={
          <Button size="small" icon={<PlusOutlined />} onClick={() => setEditing({})}>
            {t('orgAdmin.post.create')}
          </Button>
        }
      >
        {posts.isLoading ? (
          <Skeleton active />
        ) : posts.data?.list.length ? (
          <Menu
            aria-label={t('orgAdmin.post.title')}
            mode="inline"
            style={{ borderInlineEnd: 'none' }}
            selectedKeys={selectedId ? [selectedId] : []}
            onClick={({ key }) => setSelectedId(key)}
            items={posts.data.list.map((post) => ({ key: post.id, label: label(post) }))}
          />
        ) : (
          <Empty description={t('orgAdmin.post.empty')} />
        )}
      </Card>
      <MembersCard
        unit={selected}
        filter={(postId) => ({ postId })}
        onAdd={orgAdminApi.addPostMembers}
        onRemove={orgAdminApi.removePostMembers}
        pickOne={t('orgAdmin.post.pickOne')}
      />
      {editing && (
        <NameDialog
          open
          title={editing.post ? t('orgAdmin.post.rename') : t('orgAdmin.post.create')}
          label={t('orgAdmin.post.name')}
          initialName={editing.post?.name}
          maxLength={POST_NAME_MAX}
          onClose={() => setEditing(undefined)}
          onSubmit={async (name) => {
            await (editing.post ? orgAdminApi.renamePost(editing.post.id, name) : orgAdminApi.createPost(name));
            await queryClient.invalidateQueries({ queryKey: orgKeys.all });
          }}
        />
      )}
    </Flex>
  );
}
