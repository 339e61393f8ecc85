import { useState } from 'react';
import { Button, Card, Empty, Flex, Menu, Skeleton, Typography, theme } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { orgAdminApi, orgKeys, type PostDto } from '../api/org-admin-api.ts';
import { useRemoveConfirm } from '../hooks/use-remove-confirm.ts';
import { NameDialog } from './name-dialog.tsx';
import { UnitMembers } from './unit-members.tsx';
import { UnitMenu } from './unit-menu.tsx';

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
      <Typography.Text ellipsis>
        <span>{post.name}</span>
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, marginInlineStart: token.marginXS }}>
          {t('orgAdmin.role.memberCount', { count: post.memberCount })}
        </Typography.Text>
      </Typography.Text>
      <UnitMenu
        name={post.name}
        items={[
          { key: 'rename', label: t('orgAdmin.rename') },
          { key: 'remove', label: t('orgAdmin.remove'), danger: true, divided: true },
        ]}
        onSelect={(key) =>
          key === 'rename'
            ? setEditing({ post })
            : confirmRemove({
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
      <Card size="small" style={{ flex: 1, minWidth: 0 }}>
        {selected ? (
          <UnitMembers
            key={selected.id}
            title={selected.name}
            filter={{ postId: selected.id }}
            onAdd={(ids) => orgAdminApi.addPostMembers(selected.id, ids)}
            onRemove={(ids) => orgAdminApi.removePostMembers(selected.id, ids)}
          />
        ) : (
          <Empty description={t('orgAdmin.post.pickOne')} />
        )}
      </Card>
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
