// antd's Input from its own file: the package's Input also carries TextArea, Search and OTP (docs/decisions/0036).
import Input from 'antd/es/input/Input';
import { useTranslation } from 'react-i18next';
import { inputProps, LightField, type LightForm } from './light-form.tsx';

/**
 * The 手机号 field of the login home's light forms (MobileField is antd Form's); focus lands here (ui.md "Keyboard").
 */
export function SignInMobileField<N extends string>({ form, autoFocus = true }: { form: LightForm<N | 'mobile'>; autoFocus?: boolean }) {
  const { t } = useTranslation();
  return (
    <LightField form={form} name="mobile" label={t('fields.mobile')}>
      <Input {...inputProps(form, 'mobile')} inputMode="tel" maxLength={11} autoComplete="tel" autoFocus={autoFocus} placeholder={t('placeholders.mobile')} />
    </LightField>
  );
}
