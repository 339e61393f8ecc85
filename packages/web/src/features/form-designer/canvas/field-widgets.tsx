/** Read-only renderings of data controls, one per data type: what a person filling in the form will see. */
import type { ReactNode } from 'react';
import { Button, Cascader, Checkbox, DatePicker, Input, InputNumber, Progress, Radio, Select, Space, Tag, TimePicker, theme } from 'antd';
import { ApartmentOutlined, CameraOutlined, EditOutlined, EnvironmentOutlined, PaperClipOutlined, ScanOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { decimalPlacesOf, type AnyControlType, type ControlDataType, type ControlTypeKey } from '@tritium/shared/controls/index';
import type { DesignerControl } from '../state/control-tree.ts';
import { systemFieldOf } from '../state/control-tree.ts';
import { controlTypeName } from '../labels.ts';
import { LAYOUT_WIDGETS } from './layout-widgets.tsx';
import type { Widget, WidgetProps } from './widget-types.ts';

// The widget's shape lives in widget-types.ts (layout widgets share it); still answered here for existing callers.
export type { Widget, WidgetProps };

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const items = (control: DesignerControl) => (Array.isArray(control.options.defaultItems) ? (control.options.defaultItems as unknown[]).map(String) : []);
const full = { width: '100%' };

function TextWidget({ control }: WidgetProps) {
  const { t } = useTranslation();
  return <Input value={text(control.options.defaultValue)} placeholder={t('formDesigner.widgets.input')} readOnly />;
}

function TextAreaWidget({ control }: WidgetProps) {
  const { t } = useTranslation();
  const rows = typeof control.options.rows === 'number' ? Math.min(control.options.rows, 10) : 3;
  return <Input.TextArea value={text(control.options.defaultValue)} rows={rows} placeholder={t('formDesigner.widgets.input')} readOnly />;
}

function NumberWidget({ control }: WidgetProps) {
  const { t } = useTranslation();
  const { showMode, defaultValue } = control.options;
  if (showMode === 'bar') return <Progress percent={typeof defaultValue === 'number' ? defaultValue : 0} />;
  const value = typeof defaultValue === 'number' ? defaultValue : null;
  const places = decimalPlacesOf(control.options);
  return <InputNumber style={full} value={value} suffix={showMode === 'percentage' ? '%' : undefined} placeholder={t('formDesigner.widgets.inputNumber', { places })} readOnly />;
}

function DateWidget({ control }: WidgetProps) {
  const { t } = useTranslation();
  const format = text(control.options.displayFormat) || 'yyyy-mm-dd hh:mm';
  const placeholder = t('formDesigner.widgets.select');
  if (format === 'hh:mm') return <TimePicker style={full} format="HH:mm" placeholder={placeholder} open={false} />;
  if (format === 'yyyy-mm') return <DatePicker style={full} picker="month" placeholder={placeholder} open={false} />;
  return <DatePicker style={full} showTime={format.includes('hh') ? { format: 'HH:mm' } : false} placeholder={placeholder} open={false} />;
}

function CheckboxWidget({ control }: WidgetProps) {
  return <Checkbox checked={control.options.defaultValue === true} />;
}

function RadioWidget({ control }: WidgetProps) {
  return <Radio.Group value={control.options.defaultValue ?? undefined} options={items(control).map((item) => ({ label: item, value: item }))} />;
}

function CheckboxListWidget({ control }: WidgetProps) {
  const chosen = Array.isArray(control.options.defaultValue) ? (control.options.defaultValue as string[]) : [];
  return <Checkbox.Group value={chosen} options={items(control)} />;
}

function SelectWidget({ control }: WidgetProps) {
  const { t } = useTranslation();
  return <Select style={full} value={control.options.defaultValue ?? undefined} options={items(control).map((item) => ({ label: item, value: item }))} placeholder={t('formDesigner.widgets.select')} open={false} />;
}

function PickerWidget({ icon, placeholder, multiple }: { icon: ReactNode; placeholder: string; multiple?: boolean }) {
  return <Select style={full} mode={multiple ? 'multiple' : undefined} placeholder={placeholder} suffixIcon={icon} open={false} />;
}

function UserWidget({ type }: WidgetProps) {
  const { t } = useTranslation();
  return <PickerWidget icon={<UserOutlined />} placeholder={t('formDesigner.widgets.selectUser')} multiple={type.dataType === 'users'} />;
}

function DepartmentWidget({ type }: WidgetProps) {
  const { t } = useTranslation();
  return <PickerWidget icon={<ApartmentOutlined />} placeholder={t('formDesigner.widgets.selectDepartment')} multiple={type.dataType === 'units'} />;
}

function RecordWidget({ type }: WidgetProps) {
  const { t } = useTranslation();
  return <PickerWidget icon={null} placeholder={t('formDesigner.widgets.selectRecord')} multiple={type.dataType === 'references'} />;
}

function AreaWidget({ control }: WidgetProps) {
  const { t } = useTranslation();
  return (
    <Space.Compact direction="vertical" style={full}>
      <Cascader style={full} placeholder={t('formDesigner.widgets.selectArea')} open={false} />
      {control.options.showDetail !== false && <Input placeholder={t('formDesigner.widgets.input')} readOnly />}
    </Space.Compact>
  );
}

function LocationWidget() {
  const { t } = useTranslation();
  return <Input prefix={<EnvironmentOutlined />} placeholder={t('formDesigner.widgets.selectLocation')} readOnly />;
}

function UploadWidget() {
  const { t } = useTranslation();
  return <Button icon={<PaperClipOutlined />}>{t('formDesigner.widgets.upload')}</Button>;
}

function TileWidget({ icon, label }: { icon: ReactNode; label: string }) {
  const { token } = theme.useToken();
  return (
    <div
      style={{
        width: 96,
        height: 96,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: token.paddingXXS,
        border: `1px dashed ${token.colorBorder}`,
        borderRadius: token.borderRadius,
        background: token.colorFillAlter,
        color: token.colorTextSecondary,
        fontSize: token.fontSizeSM,
      }}
    >
      {icon}
      {label}
    </div>
  );
}

function ImageWidget() {
  const { t } = useTranslation();
  return <TileWidget icon={<CameraOutlined />} label={t('formDesigner.widgets.uploadImage')} />;
}

function SignWidget() {
  const { t } = useTranslation();
  return <TileWidget icon={<EditOutlined />} label={t('formDesigner.widgets.sign')} />;
}

function ScanWidget() {
  const { t } = useTranslation();
  return <Select style={full} mode="tags" placeholder={t('formDesigner.widgets.scan')} suffixIcon={<ScanOutlined />} open={false} />;
}

function AutoWidget() {
  const { t } = useTranslation();
  return <Input placeholder={t('formDesigner.widgets.auto')} readOnly />;
}

function ComputedWidget() {
  const { t } = useTranslation();
  return <Input placeholder={t('formDesigner.widgets.computed')} readOnly />;
}

function StatusWidget() {
  const { t } = useTranslation();
  // ui.md: Draft is orange wherever a data status appears.
  return <Tag color="orange">{t('formDesigner.widgets.draft')}</Tag>;
}

function LookupWidget() {
  return <Input value="--" readOnly />;
}

function ServiceWidget({ control }: WidgetProps) {
  return <Button>{controlTypeName(control.type)}</Button>;
}

function NothingWidget() {
  return null;
}

const BY_DATA_TYPE: Readonly<Record<ControlDataType, Widget>> = {
  string: TextWidget,
  text: TextAreaWidget,
  decimal: NumberWidget,
  int: NumberWidget,
  datetime: DateWidget,
  bool: CheckboxWidget,
  strings: ScanWidget,
  user: UserWidget,
  users: UserWidget,
  unit: DepartmentWidget,
  units: DepartmentWidget,
  address: AreaWidget,
  location: LocationWidget,
  file: SignWidget,
  files: UploadWidget,
  children: NothingWidget,
  reference: RecordWidget,
  references: RecordWidget,
  json: ServiceWidget,
  lookup: LookupWidget,
  none: NothingWidget,
};

// Control types that look unlike the others of their data type (a list is a choice, a photo a tile, a formula
// is calculated).
const BY_TYPE: Readonly<Partial<Record<ControlTypeKey, Widget>>> = {
  radioList: RadioWidget,
  checkboxList: CheckboxListWidget,
  dropDown: SelectWidget,
  photo: ImageWidget,
  status: StatusWidget,
  formula: ComputedWidget,
  rollup: ComputedWidget,
  ...LAYOUT_WIDGETS,
};

/** The rendering of one control: its type's own, a system field's, or its data type's. */
export function widgetFor(type: AnyControlType): Widget {
  return BY_TYPE[type.key] ?? (systemFieldOf(type) ? AutoWidget : BY_DATA_TYPE[type.dataType]);
}
