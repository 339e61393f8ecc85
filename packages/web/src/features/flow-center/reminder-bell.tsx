import { useState } from 'react';
import { Badge, Button, Popover } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { badgeText, useUnreadReminders } from './flow-center-api.ts';
import { ReminderList } from './reminder-list.tsx';

/** The reminder bell of the workbench top bar: the unread count as a badge (at most "99+"), the list in a pop-over. */
export function ReminderBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const unread = useUnreadReminders();
  const count = unread.data?.count ?? 0;
  return (
    <Popover open={open} onOpenChange={setOpen} trigger="click" placement="bottomRight" content={<div style={{ width: 360, maxHeight: 480, overflowY: 'auto' }}><ReminderList onOpen={() => setOpen(false)} /></div>}>
      <Badge count={badgeText(count)} size="small" offset={[-4, 4]}>
        <Button type="text" icon={<BellOutlined />} aria-label={count ? `${t('flowCenter.reminders.bell')} ${count}` : t('flowCenter.reminders.bell')} />
      </Badge>
    </Popover>
  );
}
