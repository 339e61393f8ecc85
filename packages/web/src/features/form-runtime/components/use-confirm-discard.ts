import { useRef } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Leaving a form that holds unsaved edits asks first (ui.md "Visual language": every destructive action asks first and says what
 * will be lost); without edits it leaves at once. One question at a time: a second Esc does not stack another.
 */
export function useConfirmDiscard() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const asking = useRef(false);
  return (unsaved: boolean, leave: () => void) => {
    if (!unsaved) return leave();
    if (asking.current) return;
    asking.current = true;
    modal.confirm({
      title: t('formRuntime.discard.title'),
      content: t('formRuntime.discard.content'),
      okText: t('formRuntime.discard.ok'),
      okButtonProps: { danger: true },
      cancelText: t('formRuntime.discard.cancel'),
      // Enter keeps the edits: discarding them takes a deliberate press.
      autoFocusButton: 'cancel',
      onOk: () => {
        asking.current = false;
        leave();
      },
      onCancel: () => {
        asking.current = false;
      },
    });
  };
}
