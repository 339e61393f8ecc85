import type { ReactNode } from 'react';
import { Card, Empty, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { UnitMembers } from './unit-members.tsx';
import { UnitMenu } from './unit-menu.tsx';

// What the post and role panels draw alike (docs/decisions/0026: each drew it itself): the members card on the right,
// a unit's name with its member count, and its rename / remove menu.

/** The right-hand card: the selected unit's members, or a hint to pick one. */
export function MembersCard({
  unit,
  filter,
  onAdd,
  onRemove,
  pickOne,
}: {
  unit: { id: string; name: string } | undefined;
  filter: (id: string) => { roleId: string } | { postId: string };
  onAdd: (id: string, userIds: string[]) => Promise<{ changed: number }>;
  onRemove: (id: string, userIds: string[]) => Promise<unknown>;
  pickOne: string;
}) {
  return (
    <Card size="small" style={{ flex: 1, minWidth: 0 }}>
      {unit ? (
        <UnitMembers key={unit.id} title={unit.name} filter={filter(unit.id)} onAdd={(ids) => onAdd(unit.id, ids)} onRemove={(ids) => onRemove(unit.id, ids)} />
      ) : (
        <Empty description={pickOne} />
      )}
    </Card>
  );
}

/** A unit's name, with its member count in secondary text when it has one. */
export function CountedName({ name, count, strong }: { name: ReactNode; count?: number; strong?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Typography.Text strong={strong} ellipsis>
      <span>{name}</span>
      {count !== undefined && (
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM, marginInlineStart: token.marginXS }}>
          {t('orgAdmin.role.memberCount', { count })}
        </Typography.Text>
      )}
    </Typography.Text>
  );
}

/** Rename and (after a divider, in red) remove. */
export function RenameRemoveMenu({ name, onRename, onRemove }: { name: string; onRename: () => void; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <UnitMenu
      name={name}
      items={[
        { key: 'rename', label: t('orgAdmin.rename') },
        { key: 'remove', label: t('orgAdmin.remove'), danger: true, divided: true },
      ]}
      onSelect={(key) => (key === 'rename' ? onRename() : onRemove())}
    />
  );
}
