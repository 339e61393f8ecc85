import { useEffect, useState } from 'react';
import { Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** Asks for a personal view's title (save as, rename): 1 to 50 characters. */
export function TitleDialog({ open, title, initial, onOk, onCancel }: { open: boolean; title: string; initial: string; onOk: (title: string) => Promise<void>; onCancel: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const [busy, setBusy] = useState(false);
  useEffect(() => setValue(initial), [initial, open]);
  const trimmed = value.trim();
  return (
    <Modal open={open} title={title} onCancel={onCancel} okButtonProps={{ disabled: !trimmed || trimmed.length > 50, loading: busy }}
      onOk={() => { setBusy(true); void onOk(trimmed).finally(() => setBusy(false)); }} destroyOnHidden>
      <Input aria-label={t('listView.personal.titleLabel')} value={value} maxLength={50} onChange={(e) => setValue(e.target.value)} placeholder={t('listView.personal.titleLabel')} />
    </Modal>
  );
}
