/**
 * Validation messages in the user's language (docs/decisions/0028). Every problem a validation finds is written in
 * zh-CN from one of the templates below; the server renders it again in en-US for an English caller by matching the
 * Chinese text back to its template. Zod's own issues get the same templates (`describeIssue`), so no zod default
 * English text ("Invalid input: expected number…") reaches a Chinese screen.
 */
import type { Locale } from '../errors/catalogue.ts';
import type { FieldIssue } from '../errors/envelope.ts';

type Template = { zh: string; en: string };

/** Templates: `{name}` is a parameter. Keep zh texts distinct: translation finds the template by its zh text. */
export const VALIDATION_MESSAGES = {
  // Generic kinds of problems (zod issue codes and the record checks).
  required: { zh: '必填', en: 'Required' },
  invalid: { zh: '值无效', en: 'Invalid value' },
  notNumber: { zh: '须为数字', en: 'Must be a number' },
  notInteger: { zh: '须为整数', en: 'Must be a whole number' },
  notText: { zh: '须为文本', en: 'Must be text' },
  notTextList: { zh: '须为文本列表', en: 'Must be a list of texts' },
  notBoolean: { zh: '须为是或否', en: 'Must be yes or no' },
  notList: { zh: '须为列表', en: 'Must be a list' },
  notObject: { zh: '须为对象', en: 'Must be an object' },
  notDateTime: { zh: '须为日期时间', en: 'Must be a date and time' },
  wrongType: { zh: '类型不正确，须为{expected}', en: 'Wrong type: must be {expected}' },
  empty: { zh: '不能为空', en: 'Must not be empty' },
  textTooLong: { zh: '最多{max}个字符', en: 'At most {max} characters' },
  textTooShort: { zh: '至少{min}个字符', en: 'At least {min} characters' },
  textLength: { zh: '须为{length}个字符', en: 'Must be {length} characters long' },
  listTooLong: { zh: '最多{max}项', en: 'At most {max} items' },
  listTooShort: { zh: '至少{min}项', en: 'At least {min} items' },
  numberTooBig: { zh: '不能大于{max}', en: 'Must not be greater than {max}' },
  numberTooSmall: { zh: '不能小于{min}', en: 'Must not be less than {min}' },
  numberNotBelow: { zh: '须小于{max}', en: 'Must be less than {max}' },
  numberNotAbove: { zh: '须大于{min}', en: 'Must be greater than {min}' },
  dateTooLate: { zh: '不能晚于{date}', en: 'Must not be later than {date}' },
  dateTooEarly: { zh: '不能早于{date}', en: 'Must not be earlier than {date}' },
  notMultiple: { zh: '须为{divisor}的倍数', en: 'Must be a multiple of {divisor}' },
  tooManyDecimals: { zh: '最多{max}位小数', en: 'At most {max} decimal places' },
  badFormat: { zh: '格式不正确', en: 'Invalid format' },
  badId: { zh: '须为有效的 id', en: 'Must be a valid id' },
  badDateFormat: { zh: '日期时间格式不正确', en: 'Invalid date or time format' },
  badLink: { zh: '请输入正确的链接地址', en: 'Enter a valid link' },
  badEmail: { zh: '请输入正确的邮箱地址', en: 'Enter a valid email address' },
  badIdCard: { zh: '请输入正确的身份证号', en: 'Enter a valid identity card number' },
  badIdCardNumber: { zh: '请输入正确的身份证号码', en: 'Enter a valid identity card number' },
  badTelephone: { zh: '请输入正确的电话号码', en: 'Enter a valid telephone number' },
  badPhone: { zh: '请输入正确的手机号或座机号', en: 'Enter a valid mobile or landline number' },
  notOneOf: { zh: '须为以下之一：{values}', en: 'Must be one of: {values}' },
  unknownKeys: { zh: '不支持的字段：{keys}', en: 'Unknown field: {keys}' },
  // What the edge refuses before any route runs (plugins/input-edge.ts).
  nulCharacter: { zh: '不能包含空字符（U+0000）', en: 'Must not contain the NUL character (U+0000)' },
  loneSurrogate: { zh: '含有无效的 Unicode 字符（不成对的代理项）', en: 'Contains an invalid Unicode character (an unpaired surrogate)' },
  nestedTooDeep: { zh: '嵌套层级过深（最多{max}层）', en: 'Nested too deeply (at most {max} levels)' },
  bodyNotJson: { zh: '请求体不是有效的 JSON', en: 'The request body is not valid JSON' },
  // Record saves (business-data/record-input.ts, field-values.ts).
  noSuchField: { zh: '表单没有这个字段', en: 'The form has no such field' },
  noSuchSubTable: { zh: '表单没有这个子表', en: 'The form has no such sub-table' },
  noSuchSubField: { zh: '子表没有这个字段', en: 'The sub-table has no such field' },
  badRowId: { zh: '行标识无效', en: 'Invalid row id' },
  fieldEmpty: { zh: '{field}不能为空', en: '{field} must not be empty' },
  fillIn: { zh: '请填写{field}', en: 'Fill in {field}' },
  addOneRow: { zh: '请至少添加一行{field}', en: 'Add at least one row to {field}' },
  gridNeedsRow: { zh: '{field}至少需要一行', en: '{field} needs at least one row' },
  // Lists and queries (query.service.ts, personal views).
  notFilterable: { zh: '不能按该字段筛选', en: 'This field cannot be used in a filter' },
  notSortable: { zh: '不能按字段 {field} 排序（仅短文本、日期、整数、是否、数字）', en: 'Cannot sort by {field} (only short text, date, whole number, yes/no and number fields)' },
  notSortableField: { zh: '不能按字段 {field} 排序', en: 'Cannot sort by {field}' },
  fieldMissing: { zh: '字段 {field} 不存在', en: 'The field {field} does not exist' },
  notNumberField: { zh: '字段 {field} 不是数字字段', en: 'The field {field} is not a number field' },
  tooManyRows: { zh: '数据超过{max}条，请分页查询', en: 'More than {max} records: ask page by page' },
  // Texts written into the shared contracts (validation/zod.ts, contracts/*).
  mobile: { zh: '请输入正确的11位手机号', en: 'Enter a valid 11-digit mobile number' },
  password: { zh: '密码须为8-16位字母和数字的组合', en: 'The password must be 8–16 letters and digits, with both' },
  legacyPassword: { zh: '密码须为6-16位字母和数字的组合', en: 'The password must be 6–16 letters and digits, with both' },
  verifyCode: { zh: '请输入6位数字验证码', en: 'Enter the 6-digit verification code' },
  codeRequired: { zh: '请输入编码', en: 'Enter a code' },
  codePattern: { zh: '编码只能包含字母、数字和下划线，且不能全为数字', en: 'A code may contain only letters, digits and underscores, and not only digits' },
  nameLength: { zh: '名称须为{min}-{max}个字符', en: 'The name must be {min}–{max} characters' },
  passwordRequired: { zh: '请输入密码', en: 'Enter the password' },
  engineCode: { zh: '组织编码无效', en: 'Invalid organisation code' },
  personName: { zh: '请输入姓名', en: 'Enter the name' },
  personNameLength: { zh: '姓名最多32个字符', en: 'The name has at most 32 characters' },
  departmentName: { zh: '请输入部门名称', en: 'Enter the department name' },
  departmentNameLength: { zh: '部门名称最多50个字符', en: 'The department name has at most 50 characters' },
  roleName: { zh: '请输入名称', en: 'Enter the name' },
  roleNameLength: { zh: '名称最多32个字符', en: 'The name has at most 32 characters' },
  keyword: { zh: '请输入关键字', en: 'Enter a keyword' },
  keywordLength: { zh: '关键字最多50个字符', en: 'The keyword has at most 50 characters' },
  unitPick: { zh: '请选择组织单元', en: 'Choose an organisation unit' },
  unitId: { zh: '无效的组织单元 id', en: 'Invalid organisation unit id' },
  pickOne: { zh: '至少选择一项', en: 'Choose at least one' },
  atMostPerCall: { zh: '一次最多 {max} 项', en: 'At most {max} at a time' },
  nothingToChange: { zh: '没有要修改的内容', en: 'Nothing to change' },
  pageSize: { zh: 'pageSize 须为 1-500 或 -1', en: 'pageSize must be 1–500 or -1' },
  fieldCode: { zh: '字段编码无效', en: 'Invalid field code' },
  controlCode: { zh: '控件编码无效', en: 'Invalid control code' },
  commentEmpty: { zh: '评论内容不能为空', en: 'The comment must not be empty' },
  codeLength: { zh: '编码最多64个字符', en: 'A code has at most 64 characters' },
  taskId: { zh: '无效的任务 id', en: 'Invalid task id' },
  fileId: { zh: '无效的文件 id', en: 'Invalid file id' },
  fileScene: { zh: '无效的上传场景', en: 'Invalid upload scene' },
  dataPortTaskType: { zh: '任务类型须为 Import 或 Export', en: 'The task type must be Import or Export' },
  importType: { zh: '导入方式须为 Upsert、InsertOnly 或 UpdateOnly', en: 'The import mode must be Upsert, InsertOnly or UpdateOnly' },
  importStatus: { zh: '数据状态须为 Draft、Effective 或 Processing', en: 'The record status must be Draft, Effective or Processing' },
  importMatchField: { zh: '更新数据时须选择匹配字段', en: 'Choose the matching field to update records' },
  fileNameMissing: { zh: '缺少文件名', en: 'The file name is missing' },
  fileNameLength: { zh: '文件名最多255个字符', en: 'A file name has at most 255 characters' },
  fileNameControl: { zh: '文件名不能含控制字符', en: 'A file name must not contain control characters' },
  fileType: { zh: '无效的文件类型', en: 'Invalid file type' },
  fileAtLeastOne: { zh: '至少一个文件', en: 'At least one file' },
  filesPerCall: { zh: '一次最多100个文件', en: 'At most 100 files at a time' },
  fileRepeated: { zh: '文件 id 不能重复', en: 'A file id must not repeat' },
  todoRepeated: { zh: '待办不能重复', en: 'A task must not repeat' },
  taskIdsOrAll: { zh: '须提供 taskIds 或 all（二选一）', en: 'Give taskIds or all (one of the two)' },
  messageIdsOrAll: { zh: '须提供 messageIds 或 all（二选一）', en: 'Give messageIds or all (one of the two)' },
  keywordMax: { zh: '关键字最多{max}个字符', en: 'The keyword has at most {max} characters' },
  pageSizeMax: { zh: '每页最多{max}条', en: 'At most {max} per page' },
  // Custom code and the business log (docs/decisions/0118).
  codeMax: { zh: '编码最多 {max} 个字符', en: 'A code has at most {max} characters' },
  pageSizeMaxSpaced: { zh: '每页最多 {max} 条', en: 'At most {max} per page' },
  pageFromOne: { zh: '页码从 1 开始', en: 'Pages are counted from 1' },
  logLevel: { zh: '级别须为 info、warn 或 error', en: 'The level must be info, warn or error' },
  scriptActionName: { zh: '动作名称只能由字母、数字、下划线或 $ 组成，不能以数字开头，最多 100 个字符', en: 'An action name is letters, digits, underscores or $, does not start with a digit and has at most 100 characters' },
  sourceMax: { zh: '代码最多 256 KB', en: 'The code has at most 256 KB' },
  scriptLanguage: { zh: '语言须为 ts 或 js', en: 'The language must be ts or js' },
  codePart: { zh: '代码类型须为 form-server、form-browser 或 app-api', en: 'The part must be form-server, form-browser or app-api' },
  codeOwner: { zh: '须指定应用或表单', en: 'Name an app or a form' },
  recordsPerCall: { zh: '一次最多 {max} 条数据', en: 'At most {max} records at a time' },
  // Connections and connectors (docs/decisions/0120).
  httpAddress: { zh: '请输入以 http:// 或 https:// 开头的地址', en: 'Enter an address starting with http:// or https://' },
  nameMaxSpaced: { zh: '名称最多 {max} 个字', en: 'The name has at most {max} characters' },
  paramNameMissing: { zh: '请输入参数名', en: 'Enter the parameter name' },
  paramNameChars: { zh: '参数名不能含空格或花括号', en: 'A parameter name must not contain spaces or braces' },
  connectorMissing: { zh: '请选择连接器', en: 'Choose a connector' },
  outputPath: { zh: '路径形如 data.items[0].name', en: 'A path looks like data.items[0].name' },
  outputName: { zh: '输出名只能包含字母、数字和下划线', en: 'An output name has only letters, digits and underscores' },
  sourceNul: { zh: '代码中不能含有空字符（NUL）', en: 'The code must not contain NUL characters' },
  indexFieldPick: { zh: '至少选择一个字段', en: 'Choose at least one field' },
  indexFieldMax: { zh: '每个索引最多{max}个字段', en: 'An index has at most {max} fields' },
  fieldRepeated: { zh: '字段不能重复', en: 'A field must not repeat' },
  summaryLength: { zh: '说明最多200个字符', en: 'The description has at most 200 characters' },
  nameRuleLength: { zh: '数据标题规则最多200个字符', en: 'The record title rule has at most 200 characters' },
  tooManyControls: { zh: '控件过多', en: 'Too many controls' },
  childCodeReserved: { zh: '子表控件不能使用编码{code}', en: 'A sub-table control cannot use the code {code}' },
  formulaLength: { zh: '公式最多10000个字符', en: 'A formula has at most 10000 characters' },
  iconLength: { zh: '图标最多64个字符', en: 'An icon has at most 64 characters' },
  colorFormat: { zh: '颜色格式不正确', en: 'Invalid colour format' },
  atLeastOne: { zh: '至少一项', en: 'At least one' },
  appWithParentApp: { zh: '新建应用时不能指定所属应用', en: 'A new app cannot belong to another app' },
  appWithParent: { zh: '应用没有上级节点', en: 'An app has no parent node' },
  appPick: { zh: '请选择所属应用', en: 'Choose the app' },
  linkRequired: { zh: '自定义链接须填写链接地址', en: 'A custom link needs its address' },
  idTooLong: { zh: 'id 过长', en: 'The id is too long' },
  permissionType: { zh: '权限类型须为 1、2、3、5 或 6', en: 'The permission type must be 1, 2, 3, 5 or 6' },
  pageSizeRange: { zh: 'pageSize 须为 1-{max}，或 {all} 表示全部', en: 'pageSize must be 1–{max}, or {all} for all' },
  commentLength: { zh: '评论最多{max}个字符', en: 'A comment has at most {max} characters' },
  commentFiles: { zh: '评论最多{max}个附件', en: 'A comment has at most {max} attachments' },
  fileAttachedTwice: { zh: '附件不能重复', en: 'An attachment must not repeat' },
  mentionMax: { zh: '每条评论最多提到{max}人', en: 'A comment mentions at most {max} people' },
  mentionRepeated: { zh: '提到的人重复', en: 'A person is mentioned twice' },
  tipEmpty: { zh: '提醒内容不能为空', en: 'The reminder must not be empty' },
  tipLength: { zh: '提醒内容最多{max}个字符', en: 'A reminder has at most {max} characters' },
  tipReceiverPick: { zh: '请选择提醒对象', en: 'Choose whom to remind' },
  tipReceiverMax: { zh: '提醒对象最多{max}人', en: 'At most {max} people per reminder' },
  tipReceiverRepeated: { zh: '提醒对象不能重复', en: 'A person must not repeat' },
  viewCode: { zh: '视图编码须以字母开头，仅含字母、数字和下划线', en: 'A view code starts with a letter and has only letters, digits and underscores' },
  viewLink: { zh: '链接须以 http(s):// 或 / 开头', en: 'A link starts with http(s):// or /' },
  viewScope: { zh: '视图范围无效', en: 'Invalid view scope' },
  rowHeight: { zh: '行高须为 36、46、68 或 90', en: 'The row height must be 36, 46, 68 or 90' },
  scope: { zh: '范围无效', en: 'Invalid scope' },
  widgetId: { zh: '无效的组件 id', en: 'Invalid widget id' },
  titleLength: { zh: '标题最多32个字符', en: 'A title has at most 32 characters' },
  widgetsMax: { zh: '最多30个组件', en: 'At most 30 widgets' },
  widgetRepeated: { zh: '组件 id 不能重复', en: 'A widget id must not repeat' },
  instanceOrRecord: { zh: '须提供 instanceId，或 schemaCode 与 objectId', en: 'Give instanceId, or schemaCode and objectId' },
  linkPasswordMin: { zh: '密码至少{min}个字符', en: 'A password has at least {min} characters' },
  // Open-query pages, record shares and short links (issue 19).
  queryFieldsMin: { zh: '至少选择一个查询字段', en: 'Choose at least one query field' },
  queryFieldsMax: { zh: '最多5个查询字段', en: 'At most 5 query fields' },
  resultFieldsMin: { zh: '至少选择一个结果字段', en: 'Choose at least one result field' },
  resultFieldsMax: { zh: '最多30个结果字段', en: 'At most 30 result fields' },
  sixDigitCode: { zh: '请输入6位验证码', en: 'Enter the 6-digit code' },
  shortLinkTarget: { zh: '须指定数据（schemaCode 与 objectId）或本站页面（path）之一', en: 'Name either a record (schemaCode and objectId) or a page of this site (path)' },
  queryFieldKind: { zh: '查询字段须是本表单的单行文本、数字或单选字段', en: 'A query field must be a short text, number or single-choice field of this form' },
  resultFieldKind: { zh: '结果字段须是本表单的字段', en: 'A result field must be a field of this form' },
  identityMobileField: { zh: '身份验证查询须选择存放手机号的单行文本字段', en: 'An identity query needs the short text field that holds the mobile number' },
  queryPassword: { zh: '密码查询须设置密码', en: 'A password query needs a password' },
  enterNumber: { zh: '请输入数字', en: 'Enter a number' },
  linkPasswordMax: { zh: '密码最多{max}个字符', en: 'A password has at most {max} characters' },
  // Automations (issue 21; automation/model.ts)
  automationTime: { zh: '时间格式应为HH:mm', en: 'A time is written HH:mm' },
  automationWhen: { zh: '请选择时间', en: 'Choose a time' },
  automationStepId: { zh: '步骤标识须以字母开头', en: 'A step id starts with a letter' },
  automationStepIdRepeated: { zh: '步骤标识重复', en: 'A step id must not repeat' },
  automationButtonLabel: { zh: '请输入按钮名称', en: 'Enter the button\'s label' },
  automationButtonLabelMax: { zh: '按钮名称最多{max}个字符', en: 'A button label has at most {max} characters' },
  automationButtonPlace: { zh: '请选择按钮位置', en: 'Choose where the button appears' },
  automationMatchMax: { zh: '匹配条件最多{max}个', en: 'At most {max} match conditions' },
  automationMappingMax: { zh: '字段映射最多{max}个', en: 'At most {max} field mappings' },
  automationMappings: { zh: '请设置字段映射', en: 'Set the field mappings' },
  automationUpdateMatch: { zh: '更新须设置匹配条件', en: 'An update needs match conditions' },
  automationRemoveMatch: { zh: '删除须设置匹配条件', en: 'A removal needs match conditions' },
  automationTitle: { zh: '请输入标题', en: 'Enter a title' },
  automationMailSubject: { zh: '请输入邮件主题', en: 'Enter the e-mail\'s subject' },
  automationSmsText: { zh: '请输入短信内容', en: 'Enter the text message' },
  automationRecipientsMax: { zh: '收件人最多{max}个', en: 'At most {max} recipients' },
  automationUrl: { zh: '请输入以http://或https://开头的地址', en: 'Enter an address starting with http:// or https://' },
  automationHeader: { zh: '请求头名称不正确', en: 'The header name is not valid' },
  automationName: { zh: '请输入自动化名称', en: 'Enter the automation\'s name' },
  automationNameMax: { zh: '自动化名称最多{max}个字符', en: 'An automation\'s name has at most {max} characters' },
  automationSteps: { zh: '请添加至少一个执行动作', en: 'Add at least one action' },
  automationStepsMax: { zh: '执行动作最多{max}个', en: 'At most {max} actions' },
  automationLoop: { zh: '循环须引用之前的查询步骤', en: 'A loop must name an earlier query step' },
  automationNoRecord: { zh: '该触发方式没有触发数据，不能设置条件', en: 'This trigger has no record to set conditions on' },
  automationEnd: { zh: '结束时间须晚于开始时间', en: 'The end must be after the start' },
  // Print templates (issue 24; docs/decisions/0050).
  printFieldRequired: { zh: '请选择字段', en: 'Choose a field' },
  printFormulaRequired: { zh: '请填写公式', en: 'Enter a formula' },
  printImageSource: { zh: '图片须为上传的图片', en: 'The image must be an uploaded picture' },
  printElementIdTaken: { zh: '元素 id 重复', en: 'Element ids must be unique' },
  printQrLimit: { zh: '每个模板最多{max}个二维码', en: 'A template holds at most {max} QR codes' },
  printCustomSize: { zh: '自定义纸张须填写宽和高', en: 'A custom paper size needs a width and a height' },
  printMarginsTooLarge: { zh: '页边距过大，没有可打印的区域', en: 'The margins leave no printable area' },
  printFieldUnknown: { zh: '表单中没有字段“{field}”', en: 'The form has no field "{field}"' },
  printNoRecords: { zh: '请选择要打印的数据', en: 'Choose the records to print' },
  // View modes (view-modes/, docs/decisions/0047).
  modeFieldRequired: { zh: '须选择字段', en: 'Choose a field' },
  modeFieldUnfit: { zh: '字段 {field} 不能用作该设置', en: 'The field {field} cannot be used for this setting' },
  modeUnknown: { zh: '视图类型无效', en: 'Invalid view mode' },
  modeSwitchedOff: { zh: '该视图类型未开启', en: 'This view mode is turned off' },
  tileUrl: { zh: '瓦片地址须以 http(s):// 开头', en: 'The tile address must start with http(s)://' },
  // Gantt tasks (contracts/view/gantt.ts, docs/decisions/0054).
  ganttNothingToUpdate: { zh: '须指定开始时间、结束时间或进度', en: 'Give a start, an end or a progress' },
  ganttEndBeforeStart: { zh: '结束时间不能早于开始时间', en: 'The end cannot be before the start' },
  ganttNoProgress: { zh: '该甘特图没有进度字段', en: 'This Gantt chart has no progress field' },
  ganttSelfLink: { zh: '任务不能依赖自己', en: 'A task cannot depend on itself' },
  // Reports and dashboards (issue 22; report/model.ts)
  reportNameMax: { zh: '名称最多{max}个字符', en: 'The name has at most {max} characters' },
  reportUnitMax: { zh: '单位最多{max}个字符', en: 'A unit has at most {max} characters' },
  reportMeasureField: { zh: '该汇总方式需要选择字段', en: 'This aggregate needs a field' },
  reportLink: { zh: '链接需以 http://、https:// 或 / 开头', en: 'A link starts with http://, https:// or /' },
  reportWidgetsMax: { zh: '组件最多{max}个', en: 'At most {max} widgets' },
  reportFiltersMax: { zh: '筛选最多{max}个', en: 'At most {max} filters' },
  reportFilterId: { zh: '无效的筛选 id', en: 'Invalid filter id' },
  reportFilterLabel: { zh: '请填写筛选名称', en: 'Enter the filter\'s name' },
  reportFilterWidget: { zh: '筛选绑定的组件不存在', en: 'The filter is bound to a widget that does not exist' },
  reportRefresh: { zh: '自动刷新间隔为 0（关闭）或 {min}–{max} 秒', en: 'Auto refresh is 0 (off) or {min}–{max} seconds' },
  reportMapDimension: { zh: '地图须以一个地址字段为维度', en: 'A map needs an area field as its dimension' },
  associatedCodeMissing: { zh: '缺少关联邀请码', en: 'The association invitation code is missing' },
  associatedCodeInvalid: { zh: '关联邀请码无效', en: 'The association invitation code is not valid' },
  organisationPick: { zh: '请选择组织', en: 'Choose an organisation' },
  organisationCode: { zh: '无效的组织编码', en: 'Invalid organisation code' },
  associationId: { zh: '无效的关联 id', en: 'Invalid association id' },
  invitationLinkMissing: { zh: '缺少邀请链接', en: 'The invitation link is missing' },
  invitationLinkInvalid: { zh: '邀请链接无效', en: 'The invitation link is not valid' },
  signLinkMissing: { zh: '缺少签名链接', en: 'The signing link is missing' },
  signLinkInvalid: { zh: '签名链接无效', en: 'The signing link is not valid' },
  signatureTooLarge: { zh: '签名图片过大', en: 'The signature image is too large' },
  signaturePng: { zh: '签名须为 PNG 图片', en: 'The signature must be a PNG image' },
  timeFormat: { zh: '时间格式无效', en: 'Invalid time' },
  searchTextMax: { zh: '搜索内容最多 100 个字', en: 'Search for at most 100 characters' },
  validDaysMin: { zh: '有效期至少 {min} 天', en: 'Valid for at least {min} days' },
  validDaysMax: { zh: '有效期最多 {max} 天', en: 'Valid for at most {max} days' },
  callbackKeyFormat: { zh: '密钥格式不正确', en: 'The key is not in its platform\'s format' },
  wechatPushToken: { zh: 'Token 须为 3 到 32 位字母或数字', en: 'The Token must be 3 to 32 letters or digits' },
  // Plugins and their providers (docs/decisions/0123)
  chatPlatformRepeated: { zh: '平台不能重复', en: 'A platform is named twice' },
  dayFormat: { zh: '日期格式应为 YYYY-MM-DD', en: 'A date is written YYYY-MM-DD' },
  columnsMissing: { zh: '请至少选择一列', en: 'Choose at least one column' },
  recordIdFormat: { zh: '数据 ID 格式不正确', en: 'The record id is not in its format' },
  signFlowIdFormat: { zh: '签署流程 ID 格式不正确', en: 'The signing flow id is not in its format' },
  signersMissing: { zh: '请至少选择一位签署人', en: 'Choose at least one signer' },
  signersMax: { zh: '签署人最多 {max} 位', en: 'At most {max} signers' },
  moneyAmount: { zh: '金额须为最多两位小数的正数', en: 'An amount is a positive number with at most two decimals' },
  buttonTextMissing: { zh: '请输入按钮文字', en: 'Enter the button\'s text' },
  buttonTextMax: { zh: '按钮文字最多 {max} 个字', en: 'The button\'s text has at most {max} characters' },
  descriptionMaxSpaced: { zh: '说明最多 {max} 个字', en: 'The description has at most {max} characters' },
  reasonMaxSpaced: { zh: '原因最多 {max} 个字', en: 'The reason has at most {max} characters' },
  methodMissing: { zh: '请指定方法', en: 'Name the method' },
  methodName: { zh: '方法名只能包含字母和数字', en: 'A method name has only letters and digits' },
  // AI (docs/decisions/0124)
  aiModelName: { zh: '请输入模型名称', en: 'Enter the model\'s name' },
  aiMessageMax: { zh: '单条消息最多 {max} 个字', en: 'A message has at most {max} characters' },
  aiMessageMissing: { zh: '请输入消息', en: 'Enter a message' },
  aiSceneCode: { zh: '场景编码只能包含字母、数字和 _ . -', en: 'A scene code has only letters, digits and _ . -' },
  aiTextMissing: { zh: '请粘贴要识别的文字', en: 'Paste the text to read' },
  aiTextMax: { zh: '文字最多 {max} 个字', en: 'The text has at most {max} characters' },
  aiKeyMissing: { zh: '请填写 API Key', en: 'Enter the API key' },
  // An app from a description (docs/decisions/0126)
  aiNameMissing: { zh: '请填写名称', en: 'Enter a name' },
  aiFormNoField: { zh: '每个表单至少要有一个字段', en: 'Every form needs at least one field' },
  aiNoForm: { zh: '至少要有一个表单', en: 'At least one form is needed' },
  aiDescriptionMissing: { zh: '请描述要搭建的应用', en: 'Describe the app to build' },
  aiDescriptionMax: { zh: '描述最多 {max} 个字', en: 'The description has at most {max} characters' },
  // OCR recognition templates (docs/decisions/0125)
  ocrFieldNameMissing: { zh: '请输入字段名称', en: 'Enter the field name' },
  ocrTemplateNameMissing: { zh: '请输入模板名称', en: 'Enter the template name' },
  ocrFieldsMissing: { zh: '请至少添加一个字段', en: 'Add at least one field' },
  ocrFieldsMax: { zh: '最多{max}个字段', en: 'At most {max} fields' },
  // App packages and templates (docs/decisions/0130, 0131)
  packageCodeFormat: { zh: '编码须以字母开头，只含字母、数字和下划线', en: 'A code starts with a letter and holds only letters, digits and underscores' },
  templateScope: { zh: '模板范围须为 Engine 或 Platform', en: 'A template\'s scope is Engine or Platform' },
  templateCategoryMissing: { zh: '请选择模板分类', en: 'Choose the template\'s category' },
  templateIdMissing: { zh: '缺少模板 id', en: 'The template id is missing' },
  templateIdInvalid: { zh: '无效的模板 id', en: 'The template id is not valid' },
  templateNameMin: { zh: '模板名称至少{min}个字符', en: 'A template name has at least {min} characters' },
  templateNameMax: { zh: '模板名称最多{max}个字符', en: 'A template name has at most {max} characters' },
  nameControl: { zh: '名称不能含控制字符', en: 'A name must not contain control characters' },
  summaryMax: { zh: '简介最多{max}个字符', en: 'The summary has at most {max} characters' },
  summaryControl: { zh: '简介不能含控制字符', en: 'The summary must not contain control characters' },
  introductionMax: { zh: '介绍最多{max}个字符', en: 'The introduction has at most {max} characters' },
  introductionControl: { zh: '介绍不能含控制字符', en: 'The introduction must not contain control characters' },
  mappingsMax: { zh: '映射最多{max}项', en: 'At most {max} mappings' },
  picturesMax: { zh: '截图最多{max}张', en: 'At most {max} pictures' },
  keywordControl: { zh: '关键字不能含控制字符', en: 'The keyword must not contain control characters' },
  shareEnginesMax: { zh: '一次最多共享给{max}个组织', en: 'Share with at most {max} organisations at a time' },
} as const satisfies Record<string, Template>;

export type ValidationMessageKey = keyof typeof VALIDATION_MESSAGES;
export type MessageParams = Record<string, string | number>;

/** A 777 issue that can be rendered again in another language: the template key and its parameters travel along. */
export interface LocalizableIssue extends FieldIssue {
  /** The field's display name (a form control's name), put before the message when rendered. */
  label?: string;
  key?: ValidationMessageKey;
  params?: MessageParams;
}

function fill(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function validationMessage(key: ValidationMessageKey, params?: MessageParams, locale: Locale = 'zh-CN'): string {
  const template: Template = VALIDATION_MESSAGES[key];
  return fill(locale === 'en-US' ? template.en : template.zh, params);
}

/**
 * One field problem for a 777 answer (detail.issues): `path` as the request names it, `label` the field's display
 * name (or undefined), the message from the templates above. The error handler renders it in the caller's language.
 */
export function fieldIssue(path: string, label: string | undefined, key: ValidationMessageKey, params?: MessageParams): LocalizableIssue {
  return { path, message: validationMessage(key, params), ...(label ? { label } : {}), key, ...(params ? { params } : {}) };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
const NUMERIC_PARAMS = new Set(['max', 'min', 'length', 'divisor', 'all']);
// Fixed texts first: '至少选择一项' is itself, not '至少{min}项' with min = '选择一'.
const byZhText = Object.entries(VALIDATION_MESSAGES)
  .map(([key, t]) => ({
    key: key as ValidationMessageKey,
    names: [...t.zh.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
    pattern: new RegExp(`^${escapeRegExp(t.zh).replace(/\{(\w+)\}/g, (_w, name: string) => (NUMERIC_PARAMS.has(name) ? '(-?[\\d.]+)' : '(.+?)'))}$`),
  }))
  .sort((a, b) => a.names.length - b.names.length);

/** Finds the template a zh-CN message was written from, with its parameters; undefined for free text. */
export function templateOf(message: string): { key: ValidationMessageKey; params: MessageParams } | undefined {
  for (const entry of byZhText) {
    const m = entry.pattern.exec(message);
    if (m) return { key: entry.key, params: Object.fromEntries(entry.names.map((n, i) => [n, m[i + 1]!])) };
  }
  return undefined;
}

/** A zh-CN validation message in `locale`; free text without a template stays as written. */
export function translateMessage(message: string, locale: Locale): string {
  if (locale === 'zh-CN') return message;
  const found = templateOf(message);
  if (!found) return message;
  if (found.key === 'wrongType') {
    const name = Object.values(TYPE_NAMES).find((t) => t.zh === found.params.expected);
    if (name) found.params.expected = name.en;
  }
  return validationMessage(found.key, found.params, locale);
}

/** The issue as the caller reads it: message in `locale`, the field's display name in front. */
export function localizeIssue(issue: LocalizableIssue, locale: Locale): FieldIssue & { label?: string } {
  const text = issue.key ? validationMessage(issue.key, issue.params, locale) : translateMessage(issue.message, locale);
  const message = issue.label ? `${issue.label}${locale === 'en-US' ? ': ' : '：'}${text}` : text;
  const { key: _key, params: _params, ...rest } = issue;
  return { ...rest, message };
}

const TYPE_NAMES: Record<string, { zh: string; en: string }> = {
  string: { zh: '文本', en: 'text' },
  number: { zh: '数字', en: 'a number' },
  int: { zh: '整数', en: 'a whole number' },
  boolean: { zh: '是或否', en: 'true or false' },
  array: { zh: '列表', en: 'a list' },
  object: { zh: '对象', en: 'an object' },
  date: { zh: '日期', en: 'a date' },
  bigint: { zh: '整数', en: 'a whole number' },
};
const TYPE_KEYS: Record<string, ValidationMessageKey> = {
  number: 'notNumber', int: 'notInteger', string: 'notText', boolean: 'notBoolean', array: 'notList', object: 'notObject', date: 'notDateTime',
};

/** The fields of a zod issue this module reads (zod 4's raw issue, while `input` is still present). */
export interface ZodIssueLike {
  code?: string;
  input?: unknown;
  expected?: string;
  origin?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  inclusive?: boolean;
  exact?: boolean;
  format?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  divisor?: number | bigint;
}

const list = (items: readonly unknown[]) => items.slice(0, 10).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('、');

/** A zod issue as a template key and parameters (docs/decisions/0028). */
export function templateOfZodIssue(issue: ZodIssueLike): { key: ValidationMessageKey; params?: MessageParams } {
  const limit = (n: number | bigint | undefined) => String(n);
  const sized = issue.origin === 'array' || issue.origin === 'set';
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return { key: 'required' };
      const key = TYPE_KEYS[issue.expected ?? ''];
      return key ? { key } : { key: 'wrongType', params: { expected: TYPE_NAMES[issue.expected ?? '']?.zh ?? String(issue.expected) } };
    }
    case 'too_big':
      if (issue.origin === 'string') return issue.exact ? { key: 'textLength', params: { length: limit(issue.maximum) } } : { key: 'textTooLong', params: { max: limit(issue.maximum) } };
      if (sized) return { key: 'listTooLong', params: { max: limit(issue.maximum) } };
      if (issue.origin === 'date') return { key: 'dateTooLate', params: { date: String(issue.maximum) } };
      return issue.inclusive === false ? { key: 'numberNotBelow', params: { max: limit(issue.maximum) } } : { key: 'numberTooBig', params: { max: limit(issue.maximum) } };
    case 'too_small':
      if (issue.origin === 'string') {
        if (issue.exact) return { key: 'textLength', params: { length: limit(issue.minimum) } };
        return Number(issue.minimum) === 1 ? { key: 'empty' } : { key: 'textTooShort', params: { min: limit(issue.minimum) } };
      }
      if (sized) return Number(issue.minimum) === 1 ? { key: 'pickOne' } : { key: 'listTooShort', params: { min: limit(issue.minimum) } };
      if (issue.origin === 'date') return { key: 'dateTooEarly', params: { date: String(issue.minimum) } };
      return issue.inclusive === false ? { key: 'numberNotAbove', params: { min: limit(issue.minimum) } } : { key: 'numberTooSmall', params: { min: limit(issue.minimum) } };
    case 'invalid_format':
      if (issue.format === 'email') return { key: 'badEmail' };
      if (issue.format === 'uuid' || issue.format === 'guid' || issue.format === 'cuid' || issue.format === 'ulid') return { key: 'badId' };
      if (issue.format === 'url') return { key: 'badLink' };
      if (issue.format === 'datetime' || issue.format === 'date' || issue.format === 'time') return { key: 'badDateFormat' };
      return { key: 'badFormat' };
    case 'invalid_value':
      return { key: 'notOneOf', params: { values: list(issue.values ?? []) } };
    case 'unrecognized_keys':
      return { key: 'unknownKeys', params: { keys: list(issue.keys ?? []) } };
    case 'not_multiple_of':
      return { key: 'notMultiple', params: { divisor: String(issue.divisor) } };
    default:
      return { key: 'invalid' };
  }
}

/** A zod issue's message in `locale`; installed as zod's locale on the server so defaults are zh-CN. */
export function describeIssue(issue: ZodIssueLike, locale: Locale = 'zh-CN'): string {
  const found = templateOfZodIssue(issue);
  if (found.key === 'wrongType' && locale === 'en-US') {
    return validationMessage('wrongType', { expected: TYPE_NAMES[issue.expected ?? '']?.en ?? String(issue.expected) }, locale);
  }
  return validationMessage(found.key, found.params, locale);
}
