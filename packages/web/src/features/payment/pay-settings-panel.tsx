/** The payment plugin's settings of one plugin control in the form designer (docs/decisions/0123): the payment part fills it in. */
export interface PluginSettingsPanelProps {
  /** The control's `pluginSettings`. */
  value: Record<string, string | number | boolean | null>;
  onChange: (next: Record<string, string | number | boolean | null>) => void;
}

export function PaySettingsPanel(_props: PluginSettingsPanelProps) {
  return null;
}
