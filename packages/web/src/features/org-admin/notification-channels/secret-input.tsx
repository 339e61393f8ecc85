import { Input } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A write-only secret: the stored value never comes back, so a set secret shows "已设置" as its placeholder and an
 * empty field keeps it.
 */
export function SecretInput({ isSet, value, onChange, id, ...rest }: { isSet: boolean; value?: string; onChange?: (value: string) => void; id?: string; 'aria-label'?: string }) {
  const { t } = useTranslation();
  return (
    <Input.Password
      id={id}
      value={value}
      onChange={(e) => onChange?.(e.target.value)}
      autoComplete="new-password"
      placeholder={isSet ? t('notificationChannels.secretSet') : t('notificationChannels.secretEmpty')}
      visibilityToggle={false}
      {...rest}
    />
  );
}
