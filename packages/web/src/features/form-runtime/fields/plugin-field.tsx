import { useState } from 'react';
import { Alert, App, Button, Descriptions, Flex, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasToken } from '../../../lib/session.ts';
import { PayDisplay, PayField } from './pay-field.tsx';
import { pluginKeys, pluginsApi } from '../../plugins/plugins-api.ts';
import { useRuntimeForm } from '../components/form-context.ts';
import { EMPTY_TEXT, type DisplayProps, type FieldKind, type FieldProps } from './field-types.ts';

// The plugin control (插件控件, docs/decisions/0123): it draws what its plugin (options.pluginCode) offers. The payment
// plugin draws the payment part's PayField; a plugin of the engine's own draws its button, which calls the plugin
// with the form's values and keeps the outputs as the control's JSON value.

type Outputs = Record<string, unknown>;

const textOf = (value: unknown) => (value === null || value === undefined || value === '' ? EMPTY_TEXT : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** The stored outputs as name: value lines (a value that is not an object reads as its JSON). */
function OutputsView({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <Typography.Text type="secondary">{EMPTY_TEXT}</Typography.Text>;
  const outputs = (value as { outputs?: unknown }).outputs ?? value;
  if (typeof outputs !== 'object' || Array.isArray(outputs) || outputs === null) return <Typography.Text>{textOf(outputs)}</Typography.Text>;
  return (
    <Descriptions size="small" column={1} bordered items={Object.entries(outputs as Outputs).map(([name, v]) => ({ key: name, label: name, children: textOf(v) }))} />
  );
}

function usePlugin(code: string | null) {
  // A visitor's public form has no session to ask with (a 401 would send them to sign in): the plugin reads as absent.
  const signedIn = hasToken();
  const instances = useQuery({ queryKey: pluginKeys.instances, queryFn: pluginsApi.instances, enabled: !!code && signedIn, staleTime: 60_000 });
  return { loading: signedIn && instances.isLoading, plugin: instances.data?.items.find((i) => i.code === code) };
}

function CustomPluginButton({ control, value, onChange, disabled, pluginCode, buttonText }: FieldProps<Outputs> & { pluginCode: string; buttonText: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const form = useRuntimeForm();
  const [running, setRunning] = useState(false);
  const press = async () => {
    setRunning(true);
    try {
      const answer = await pluginsApi.invoke({ pluginCode, method: 'call', params: { values: form.form.values } });
      const outputs = ((answer.result as { outputs?: Outputs } | null)?.outputs ?? {}) as Outputs;
      onChange(outputs);
      void message.success(t('plugins.field.done'));
    } catch {
      // The client has shown the server's message (not installed, the outside system's failure…).
    } finally {
      setRunning(false);
    }
  };
  return (
    <Flex vertical gap={8} style={{ width: '100%' }}>
      <Button disabled={disabled} loading={running} onClick={() => void press()} style={{ alignSelf: 'flex-start' }} aria-label={`${control.label}：${buttonText}`}>
        {buttonText}
      </Button>
      {value ? <OutputsView value={value} /> : <Typography.Text type="secondary">{t('plugins.field.empty')}</Typography.Text>}
    </Flex>
  );
}

function PluginEdit(props: FieldProps<Outputs>) {
  const { t } = useTranslation();
  const { control } = props;
  const code = typeof control.options.pluginCode === 'string' && control.options.pluginCode ? control.options.pluginCode : null;
  const { loading, plugin } = usePlugin(code);
  if (!code) return <Alert type="info" showIcon message={t('plugins.field.notChosen', { name: control.label })} />;
  if (loading) return <Button loading style={{ alignSelf: 'flex-start' }}>{control.label}</Button>;
  if (!plugin || plugin.status !== 'installed') return <Alert type="warning" showIcon message={t('plugins.field.notInstalled', { name: plugin?.name ?? code })} />;
  if (plugin.templateCode === 'payment') return <PayField {...(props as FieldProps)} />;
  if (plugin.custom) return <CustomPluginButton {...props} pluginCode={plugin.code} buttonText={plugin.custom.buttonText} />;
  return <Alert type="info" showIcon message={t('plugins.field.unsupported', { name: plugin.name })} />;
}

// The payment plugin's instance has the template's code (one per engine): its value is an order, shown as one.
function PluginDisplay(props: DisplayProps<Outputs>) {
  if (props.control.options.pluginCode === 'payment') return <PayDisplay {...(props as DisplayProps)} />;
  return <OutputsView value={props.value} />;
}

export const pluginField: FieldKind<Outputs> = { Edit: PluginEdit, Display: PluginDisplay };
