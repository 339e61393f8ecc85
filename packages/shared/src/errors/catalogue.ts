/**
 * The error catalogue (past 500 lines on purpose: one flat table of every code, so that a number is never given twice). Codes named in shared/spec/calls.md §8 keep their numbers; codes the spec does not
 * number get one in a range per module: 1000xx platform, 2100xx account and registration, 2200xx organisation, 2300xx apps and function nodes, 2400xx forms, 2500xx business data, 2600xx files, 2700xx comments and task tips, 2800xx workflow, 2900xx list views, 3100xx reminders, 3200xx open API, 3300xx form permissions, 3400xx notifications, 3500xx search, 3600xx automations, 3700xx reports and dashboards, 3900xx print, 4100xx script runs, 4101xx the code editor, 4200xx connections and connectors, 4300xx plugins, 4400xx payment, 4500xx e-signature, 4600xx chat-app notifications and attendance, 4700xx face check, 4800xx AI.
 * Each entry: a stable symbolic name, the HTTP status it travels with, zh-CN and en-US messages.
 */
export type ErrorType = 'BIZ' | 'SYS';

export interface ErrorDefinition {
  code: number;
  /** HTTP status the error travels with (api-conventions.md: business errors are 200). */
  status: number;
  type: ErrorType;
  zh: string;
  en: string;
}

function biz(code: number, zh: string, en: string, status = 200): ErrorDefinition {
  return { code, status, type: 'BIZ', zh, en };
}

export const ERRORS = {
  // calls.md §8 generic codes
  ParameterVerificationFailed: biz(777, '参数校验失败', 'Parameter verification failed'),
  ServerSystemError: { code: 888, status: 500, type: 'SYS', zh: '服务器系统错误，请稍后重试', en: 'Server system error, please try again later' },

  // calls.md §8 login codes
  TypeInvalid: biz(200001, '登录类型无效', 'Invalid login type'),
  SystemError: biz(200002, '登录服务异常', 'Login service error'),
  ArgumentIsNull: biz(200101, '缺少必要参数', 'A required argument is missing'),
  TokenExpired: biz(200102, '登录已过期，请重新登录', 'Your session has expired, please sign in again', 401),
  NotAuth: biz(200201, '未登录或登录凭证无效', 'Not signed in or the credential is invalid', 401),
  DingTalkAuthed: biz(200301, '该账号已完成钉钉授权', 'This account is already authorised with DingTalk'),
  EngineDisabled: biz(200401, '该组织已被停用', 'This organisation is disabled', 403),
  EngineMigrating: biz(200402, '该组织正在迁移中，请稍后再试', 'This organisation is being migrated, please try later', 403),
  EngineArchived: biz(200403, '该组织已归档', 'This organisation is archived', 403),
  EngineAllocating: biz(200404, '该组织正在初始化，请稍后再试', 'This organisation is being set up, please try later', 403),
  UserNotExist: biz(200501, '用户不存在', 'The user does not exist'),
  UserDisabled: biz(200502, '该用户已被停用', 'This user is disabled'),
  UserDisableAuthorized: biz(200503, '该用户已被禁止授权登录', 'This user may not sign in through authorisation'),
  MobileNotExist: biz(200504, '手机号未注册', 'This mobile number is not registered'),
  EngineNotExist: biz(200601, '组织不存在', 'The organisation does not exist'),
  EngineCodeInvalid: biz(200602, '组织编码无效', 'The organisation code is invalid'),
  EngineNotJoined: biz(200603, '您尚未加入该组织', 'You have not joined this organisation'),
  ChatScanFailed: biz(200701, '扫码登录失败', 'Scan login failed'),
  ChatScanStateInvalid: biz(200702, '扫码登录请求无效或已使用，请重新扫码', 'This scan sign-in is unknown or was used already: please scan again'),
  ChatScanStateExpired: biz(200703, '扫码登录已超时，请重新扫码', 'This scan sign-in has timed out: please scan again'),
  ChatOaFailed: biz(200801, '工作台免登失败', 'Workplace sign-in failed'),
  IntegrationNotConfigured: biz(200901, '该登录方式尚未配置', 'This sign-in method is not configured'),
  ChatPlatformUnreachable: biz(200902, '无法连接第三方平台，请稍后重试', 'The chat platform cannot be reached, please try again later'),
  ShortcutLimitReached: biz(200903, '钉钉快捷方式已达上限（50 个）', 'The organisation has the most DingTalk shortcuts allowed (50)'),
  ChatCallbackRejected: biz(200904, '回调签名校验失败或内容无法解密，未做任何修改', 'The callback signature does not match or its content cannot be decrypted; nothing was changed'),
  SecurityTokenExpired: biz(201001, '安全凭证已过期，请重新操作', 'The security token has expired, please start again'),
  VerifyCodeInvalid: biz(201101, '验证码错误或已失效', 'The verification code is wrong or has expired'),
  VerifyCodeLimited: biz(201102, '验证码发送过于频繁，请稍后再试', 'Verification codes were requested too often, please try later'),
  SmsSendFailed: biz(201103, '短信发送失败，请稍后重试', 'The text message could not be sent, please try again'),
  PasswordInvalid: biz(201201, '手机号或密码错误', 'Wrong mobile number or password'),
  PasswordErrorTooMany: biz(201202, '密码错误次数过多，账号已暂时锁定，请稍后再试或使用验证码登录', 'Too many wrong passwords: the account is locked for a while; try later or sign in with a code'),
  CaptchaRisk: biz(202101, '操作存在风险，请完成安全验证', 'This request looks risky, please complete the security check'),
  UpdatePasswordFailed: biz(203001, '修改密码失败', 'The password could not be changed'),
  CaptchaVerifyLimited: biz(203100, '安全验证次数过多，请稍后再试', 'Too many security checks, please try later'),
  AgentInfoError: biz(203101, '应用配置信息有误', 'The app agent settings are wrong'),
  // 20500x associated organisations (docs/decisions/0091)
  AssociatedCodeInvalid: biz(205001, '关联邀请链接无效、已被使用或已过期，请向对方索取新的链接', 'This association link is unknown, was used already or has expired: ask the other organisation for a new one'),
  AssociateWithSelf: biz(205002, '不能与本组织自己关联', 'An organisation cannot be associated with itself'),
  AlreadyAssociated: biz(205003, '这两个组织已经关联，无需重复关联', 'These two organisations are associated already'),
  NotOrganisationAdministrator: biz(205004, '只有该组织的管理员可以关联组织或选择参与关联的成员', 'Only an administrator of that organisation may associate it or choose its members who take part', 403),
  AssociationUnavailable: biz(205005, '该组织关联不存在或已解除', 'This association does not exist or has ended'),
  OfficialAccountBindError: biz(206001, '该手机号的用户已绑定其他微信，无法再绑定', 'The user of this number is bound to another WeChat already and cannot be bound again'),
  WechatBoundElsewhere: biz(206002, '该微信已绑定本组织的其他用户，请先在该用户处解绑', 'This WeChat is bound to another user of the organisation: unbind it there first'),
  WechatNotBound: biz(206003, '当前账号尚未绑定微信，无需解除绑定', 'This account has no WeChat bound: there is nothing to unbind'),
  SsoSettingMissing: biz(208001, '单点登录尚未配置', 'Single sign-on is not configured'),
  SsoStateInvalid: biz(208002, '单点登录请求无效或已使用，请重新登录', 'This single sign-on request is unknown or was used already: please sign in again'),
  SsoStateExpired: biz(208003, '单点登录请求已过期，请重新登录', 'This single sign-on request has expired: please sign in again'),
  SsoIdentityRejected: biz(208004, '身份提供方的应答未通过校验，无法登录', 'The identity provider\'s answer did not pass the checks: you cannot sign in with it'),
  SsoUserNotFound: biz(208005, '该身份在本组织中没有对应的用户，请联系管理员', 'No user of this organisation matches this identity: ask your administrator'),
  SsoRedirectNotAllowed: biz(208006, '登录后的跳转地址不在允许范围内', 'The address to open after signing in is not allowed'),
  AppInfoError: biz(207001, '应用信息有误', 'The app information is wrong'),
  LicenseExpired: biz(400001, '授权已过期，请联系管理员续期', 'The licence has expired, please ask your administrator to renew it', 403),

  // 1000xx platform (codes the spec does not number)
  NotFound: biz(100404, '请求的资源不存在', 'The requested resource does not exist', 404),
  Forbidden: biz(100403, '没有权限执行此操作', 'You are not allowed to do this', 403),
  EngineAccessDenied: biz(100405, '您不属于该组织，无法访问其数据', 'You do not belong to this organisation', 403),
  RateLimited: biz(100429, '请求过于频繁，请稍后再试', 'Too many requests, please try later', 429),
  PayloadTooLarge: biz(100413, '上传内容超过大小限制', 'The upload is larger than allowed', 413),
  MethodNotAllowed: biz(100406, '不支持的请求方法', 'Method not allowed', 405),
  // 100050–100059 platform resilience (docs/decisions/0027)
  ServiceUnavailable: {
    code: 100050,
    status: 503,
    type: 'SYS',
    zh: '服务暂时不可用（数据库连接中断），请稍后重试',
    en: 'The service is temporarily unavailable (the database cannot be reached), please try again shortly',
  },

  // 2100xx account and registration
  MobileAlreadyRegistered: biz(210001, '该手机号已注册，请直接登录', 'This mobile number is registered already, please sign in'),
  PasswordRequired: biz(210002, '请设置登录密码', 'Please set a password'),
  DataFolderLocked: { code: 210099, status: 500, type: 'SYS', zh: '数据目录已被另一个进程占用', en: 'The data folder is in use by another process' },

  // 2200xx organisation: departments, users, roles, role groups and posts
  UnitNotFound: biz(220001, '组织单元不存在或不属于当前组织', 'The organisation unit does not exist in this organisation', 404),
  DepartmentCycle: biz(220002, '不能把部门移动到它自己或它的下级部门之下', 'A department cannot be moved under itself or one of its sub-departments'),
  DepartmentNotEmpty: biz(220003, '该部门下还有子部门或成员，请先移走后再删除', 'The department still has sub-departments or members: move them out first'),
  RootUnitLocked: biz(220004, '组织根节点不能删除、移动或改名', 'A root of the organisation cannot be removed, moved or renamed'),
  DepartmentNameTaken: biz(220005, '同一上级部门下已有同名部门', 'A department with this name already exists under the same parent'),
  OrgScopeMismatch: biz(220006, '内部组织与外部组织的部门和人员不能混用', 'Internal and external departments and users cannot be mixed'),
  MobileAlreadyInEngine: biz(220007, '该手机号已是本组织的成员', 'This mobile number already belongs to a user of this organisation'),
  CannotRemoveLastAdministrator: biz(220008, '组织至少需要保留一名启用的管理员', 'The organisation must keep at least one active administrator'),
  CannotDisableSelf: biz(220009, '不能停用自己', 'You cannot disable yourself'),
  UserMobileLocked: biz(220010, '该用户已加入组织，手机号不能再修改', 'This user has joined the organisation: the mobile number can no longer be changed'),
  UserNotInDepartment: biz(220011, '用户不在该部门中', 'The user is not in this department'),
  RoleGroupNotEmpty: biz(220012, '该角色组下还有角色，请先删除或移走', 'The role group still has roles: remove or move them first'),
  RoleNameTaken: biz(220013, '同一角色组下已有同名角色', 'A role with this name already exists in the role group'),
  RoleGroupNameTaken: biz(220014, '已有同名角色组', 'A role group with this name already exists'),
  PostNameTaken: biz(220015, '已有同名岗位', 'A post with this name already exists'),
  AuthTypeNotAllowed: biz(220016, '外部用户的权限类型只能是外部用户，内部用户不能设为外部用户', 'External users have the External auth type, and internal users cannot have it'),
  InvitationLinkNotFound: biz(220017, '邀请链接无效，请向管理员索取新的链接', 'This invitation link is not valid: ask the administrator for a new one'),
  InvitationLinkExpired: biz(220018, '邀请链接已过期，请向管理员索取新的链接', 'This invitation link has expired: ask the administrator for a new one'),
  InvitationLinkRevoked: biz(220019, '邀请链接已被管理员关闭', 'This invitation link has been turned off by the administrator'),

  // 2300xx apps and function nodes, background jobs, workbench
  FunctionNodeNotFound: biz(230001, '应用或功能节点不存在，或您没有访问权限', 'The app or function node does not exist, or you may not open it', 404),
  FunctionNodeCodeTaken: biz(230002, '编码已被使用，请换一个', 'This code is in use already: choose another one'),
  FunctionNodeParentInvalid: biz(230003, '上级节点须是同一应用或其中的分组', 'The parent must be the app or one of its groups'),
  FunctionNodeMoveNotAllowed: biz(230004, '不能移动到该位置', 'The node cannot be moved there'),
  FunctionNodeForbidden: biz(230005, '您没有管理该应用的权限', 'You do not administer this app', 403),
  AppCopyNotAllowed: biz(230006, '只能复制您管理的应用', 'Only an app you administer can be copied'),
  JobNotFound: biz(230007, '后台任务不存在', 'The background job does not exist', 404),
  JobNotRetryable: biz(230008, '只有超时的任务可以重试', 'Only a timed-out job can be retried'),
  FunctionNodeSortInvalid: biz(230009, '只能排在同一层级的节点之后', 'A node can only be placed after a sibling'),

  // 2400xx forms: designer, schema publishing, custom indexes, sequence numbers (docs/decisions/0006)
  FormNodeNotForm: biz(240001, '该功能节点不是表单，不能设计或发布', 'This function node is not a form: it has no form design'),
  FormDraftConflict: biz(240002, '表单已被修改，请重新加载后再操作', 'The form was changed meanwhile: reload it and try again'),
  FormPublishNeedsConfirmation: biz(240003, '发布会删除或无法转换已有数据，请确认后再发布', 'Publishing would remove or fail to convert existing data: confirm the changes first'),
  FormNotPublished: biz(240004, '表单尚未发布', 'The form has not been published yet'),
  FormTooManyColumns: biz(240005, '表单的数据字段过多，无法发布', 'The form has too many data fields to be published'),
  CustomIndexLimit: biz(240006, '每个表单最多5个索引，每个索引最多5个字段', 'A form has at most 5 indexes of at most 5 fields each'),
  CustomIndexFieldInvalid: biz(240007, '索引字段须是已发布表单中可排序的字段', 'Index fields must be sortable fields of the published form'),
  CustomIndexDuplicate: biz(240008, '已有相同字段的索引', 'An index on the same fields exists already'),
  CustomIndexNotFound: biz(240009, '索引不存在', 'The index does not exist', 404),
  SeqNoControlNotFound: biz(240010, '该表单没有这个流水号控件', 'The form has no such sequence number control'),
  FormFormulaCycle: biz(240011, '公式之间存在循环引用，请修改后再发布', 'Formulas refer to each other in a cycle: change them before publishing'),
  // 24005x rollups and business rules at design time (docs/decisions/0015)
  BusinessRuleInvalid: biz(240050, '业务规则引用的表单或字段不正确，请修改后再发布', 'A business rule names a form or field that does not fit: change it before publishing'),
  BusinessRuleCycle: biz(240051, '业务规则之间存在循环（表单互相写入），请修改后再发布', 'Business rules write each other\'s forms in a cycle: change them before publishing'),
  RollupInvalid: biz(240052, '汇总控件的数据来源不正确，请修改后再发布', 'A rollup\'s source does not fit: change it before publishing'),
  RollupCycle: biz(240053, '汇总与公式之间存在跨表单的循环引用，请修改后再发布', 'Rollups and formulas refer to each other across forms in a cycle: change them before publishing'),
  // 24008x data links, associations (docs/decisions/0016)
  DataLinkNotConfigured: biz(240080, '该控件没有配置数据联动', 'This control has no data link'),
  AssociationNotConfigured: biz(240081, '该控件不是关联表单，或尚未选择关联的表单', 'This control is not an association, or its form is not chosen yet'),
  // 24009x tree-structured forms at design time (docs/decisions/0023)
  TreeStructureInvalid: biz(240090, '当前数据不满足树形展示的要求（循环引用、超过10级或超过10000条），不能开启树形展示', 'The records do not fit tree display (a cycle, more than 10 levels or more than 10,000 records): it cannot be turned on'),

  // 24010x form definitions (docs/decisions/0029); {displayName} and {settings} come from detail
  FormControlIncomplete: biz(240100, '控件“{displayName}”缺少必要的设置（{settings}），不能发布', 'The control "{displayName}" lacks required settings ({settings}): it cannot be published'),

  // 2500xx business data: records of published forms (docs/decisions/0007)
  BizObjectNotFound: biz(250001, '数据不存在，或您没有查看权限', 'The record does not exist, or you may not read it', 404),
  BizObjectActionNotAllowed: biz(250002, '当前数据状态下不能执行该操作', 'This action is not allowed in the record\'s current status'),
  BizObjectForbidden: biz(250003, '只有数据的创建人、拥有者或应用管理员可以修改或删除该数据', 'Only the record\'s creator, its owner or an app administrator may change or remove it', 403),
  BizObjectDuplicate: biz(250004, '该字段的值已存在，不能重复', 'This value exists already in another record'),
  WorkflowSubmitNotSupported: biz(250005, '流程表单暂不支持提交，请先保存为草稿', 'Workflow forms cannot be submitted yet: save a draft instead'),
  SingletonRecordExists: biz(250006, '单例表单只能有一条数据', 'A singleton form holds exactly one record'),
  BizPropertyNotFound: biz(250007, '表单没有这个字段', 'The form has no such field'),
  // 25005x business rules and rollups at run time (docs/decisions/0015)
  BusinessRuleWriteRefused: biz(250050, '业务规则写入数据失败，操作未执行', 'A business rule\'s write was refused: nothing was done'),
  BusinessRuleTooDeep: biz(250051, '业务规则连锁触发的层级过多，操作未执行', 'Business rules triggered each other too deeply: nothing was done'),
  // 25007x dependent fields and submit rules (docs/decisions/0016)
  SubmitRuleFailed: biz(250070, '不满足提交条件，不能提交', 'The record does not meet a submit rule'),
  AssociationOutOfRange: biz(250071, '所选数据不在关联表单的可选范围内', 'The chosen record is not one the association offers'),
  AssociationFilterInvalid: biz(250072, '关联表单的数据范围条件无效', 'The association\'s data range is not a valid condition'),
  // 2502xx signing on the phone (docs/decisions/0114)
  SignLinkNotFound: biz(250201, '签名链接无效，请在电脑上重新生成二维码', 'This signing link is not valid: make a new QR code on the computer'),
  SignLinkUsed: biz(250202, '该签名链接已使用过，请在电脑上重新生成二维码', 'This signing link was used already: make a new QR code on the computer'),
  SignLinkExpired: biz(250203, '签名链接已过期，请在电脑上重新生成二维码', 'This signing link has expired: make a new QR code on the computer'),
  SignatureInvalid: biz(250204, '签名图片无效，请重新签名', 'The signature image is not valid: please sign again'),
  SignFieldNotEditable: biz(250205, '您不能修改该签名字段', 'You may not change this signature field', 403),
  // 25010x field values: options, people and departments (docs/decisions/0029); {displayName} and {value} come from detail
  BizValueNotAnOption: biz(250100, '“{displayName}”的值“{value}”不是可选的选项', 'The value "{value}" of "{displayName}" is not one of its options'),
  BizUserNotFound: biz(250101, '“{displayName}”中的人员不存在：{value}', 'A user chosen in "{displayName}" does not exist: {value}'),
  BizDepartmentNotFound: biz(250102, '“{displayName}”中的部门不存在：{value}', 'A department chosen in "{displayName}" does not exist: {value}'),
  // 25009x tree-structured forms at run time (docs/decisions/0023)
  TreeParentCycle: biz(250090, '上级数据不能是本条数据或它的下级，否则会形成循环引用', 'The parent cannot be the record itself or one of its descendants: that would make a cycle'),
  TreeTooDeep: biz(250091, '当前表单已开启树形展示，最多支持10级、10000条数据。如需继续添加数据，请联系管理员在表单属性中关闭树形展示。', 'Tree display is on for this form: it holds at most 10 levels and 10,000 records. To add more, ask an administrator to turn tree display off in the form properties.'),
  TreeTooManyRecords: biz(250092, '当前表单已开启树形展示，最多支持10级、10000条数据。如需继续添加数据，请联系管理员在表单属性中关闭树形展示。', 'Tree display is on for this form: it holds at most 10 levels and 10,000 records. To add more, ask an administrator to turn tree display off in the form properties.'),

  // 2600xx files: upload policy, storage, signed download URLs (docs/decisions/0008)
  FileNotFound: biz(260001, '文件不存在，或您没有查看权限', 'The file does not exist, or you may not read it', 404),
  FileTooLarge: biz(260002, '文件超过该场景允许的大小', 'The file is larger than this upload scene allows', 413),
  FileTypeNotAccepted: biz(260003, '该场景不接受这种文件类型', 'This upload scene does not accept this type of file'),
  FileBodyMissing: biz(260004, '请以请求体上传文件内容', 'Send the file\'s bytes as the request body'),
  FileUrlInvalid: biz(260005, '下载链接无效或已过期，请重新获取', 'The download link is invalid or has expired: ask for a new one', 403),
  FileAlreadyClaimed: biz(260006, '文件已属于其他数据，不能再次使用', 'The file belongs to another record and cannot be used again'),

  // 2700xx comments and task tips on records (docs/decisions/0009)
  SnsNotEnabled: biz(270001, '该表单未开启评论', 'Comments are not enabled on this form'),
  SnsCommentNotFound: biz(270002, '评论不存在或已被删除', 'The comment does not exist or was removed', 404),
  SnsCommentForbidden: biz(270003, '只能删除自己的评论（应用管理员可删除任意评论）', 'You may remove only your own comments (an app administrator may remove any)', 403),
  TaskTipNotEnabled: biz(270004, '该表单未开启任务提醒', 'Task tips are not enabled on this form'),
  TaskTipNotFound: biz(270005, '任务提醒不存在或已被删除', 'The task tip does not exist or was removed', 404),
  TaskTipForbidden: biz(270006, '只有提醒的创建人或应用管理员可以取消或删除该提醒', 'Only the task tip\'s creator or an app administrator may cancel or remove it', 403),
  TaskTipNotPending: biz(270007, '只有待提醒的任务提醒可以取消', 'Only a pending task tip can be cancelled'),
  TaskTipReceiverNotFound: biz(270008, '提醒对象不存在或已停用', 'A receiver does not exist in this organisation or is disabled'),

  // 2800xx workflow engine: templates, instances, work items (docs/decisions/0014)
  WorkflowFormNotWorkflow: biz(280001, '该表单不是流程表单', 'This form is not a workflow form'),
  WorkflowTemplateInvalid: biz(280002, '流程设计有误，不能发布', 'The workflow design has errors and cannot be published'),
  WorkflowTemplateNotPublished: biz(280003, '流程尚未发布', 'The workflow has not been published yet'),
  WorkflowInstanceNotFound: biz(280004, '流程不存在，或您没有查看权限', 'The workflow instance does not exist, or you may not read it', 404),
  WorkflowInstanceExists: biz(280005, '该数据已发起过流程', 'A workflow has already been started for this record'),
  WorkflowItemNotFound: biz(280006, '待办不存在，或不是您的待办', 'The work item does not exist or is not yours', 404),
  WorkflowItemHandled: biz(280007, '该待办已被处理', 'This work item has already been handled'),
  WorkflowActionNotPermitted: biz(280008, '当前节点不允许该操作', 'This action is not permitted here', 403),
  WorkflowStateInvalid: biz(280009, '当前流程状态下不能执行该操作', 'This action is not allowed in the workflow\'s current state'),
  WorkflowRetrieveRefused: biz(280010, '后续节点已处理，不能撤回', 'The next node has already acted: the flow cannot be withdrawn'),
  WorkflowActivityInvalid: biz(280011, '目标节点无效', 'The target activity is not valid here'),
  WorkflowParticipantInvalid: biz(280012, '处理人无效（不存在、已停用或已有待办）', 'A participant is invalid: unknown, disabled or already holding an item'),
  WorkflowItemSuspended: biz(280013, '正在等待加签人审批，暂不能处理', 'Waiting for the added signers: this item cannot be handled yet'),
  WorkflowNoRoute: biz(280014, '没有满足条件的流转路径', 'No route out of this node matches the record'),
  WorkflowSignatureRequired: biz(280015, '该节点要求手写签名，请签名后再提交', 'This step requires a hand signature with the opinion'),
  WorkflowChildFormInvalid: biz(280016, '子流程的表单不存在、不是流程表单或流程尚未发布', 'The child flow\'s form does not exist, is not a workflow form, or its workflow is not published'),
  WorkflowReviseNotAllowed: biz(280017, '只有应用管理员可以在流程运行中或结束后修订数据', 'Only administrators of the app may revise a record while its flow runs or after it ends', 403),

  // 2900xx list views: view settings, personal views, batch changes (docs/decisions/0017)
  ViewNotFound: biz(290001, '视图不存在', 'The view does not exist', 404),
  ViewDesignForbidden: biz(290002, '只有应用管理员可以设计视图', 'Only administrators of the app may design its views', 403),
  PersonalViewNotFound: biz(290003, '个人视图不存在', 'The personal view does not exist', 404),
  PersonalViewLimit: biz(290004, '每个表单最多保存50个个人视图', 'At most 50 personal views may be saved per form'),
  BatchTaskNotFound: biz(290005, '批量任务不存在', 'The batch task does not exist', 404),
  BatchUpdateFieldInvalid: biz(290006, '该字段不能批量修改', 'This field cannot be changed in a batch'),
  BatchTooManyRecords: biz(290007, '一次最多批量修改10000条数据，请缩小范围', 'At most 10,000 records may be changed at once: narrow the selection'),
  // 29001x hierarchy views (docs/decisions/0023)
  HierarchyViewTooLarge: biz(290010, '层级视图最多支持10级、100000条数据，请缩小视图的筛选范围或联系管理员调整视图。', 'A hierarchy view shows at most 10 levels and 100,000 records: narrow the view or ask an administrator to change it'),
  HierarchyViewTooDeep: biz(290011, '层级视图最多支持10级、100000条数据，请缩小视图的筛选范围或联系管理员调整视图。', 'A hierarchy view shows at most 10 levels and 100,000 records: narrow the view or ask an administrator to change it'),
  HierarchyViewNotHierarchy: biz(290012, '该视图不是层级视图', 'This view is not a hierarchy view'),
  // 29002x view modes (docs/decisions/0047)
  ViewModeSwitchedOff: biz(290020, '该视图类型未开启，请联系管理员', 'This view mode is turned off: ask an administrator'),
  ViewModeMismatch: biz(290021, '该视图不是这种视图类型', 'The view is not of this mode'),
  // 29003x Gantt tasks (docs/decisions/0054)
  GanttNoLevels: biz(290030, '该甘特图没有上级字段，不能调整任务层级', 'This Gantt chart has no parent field: task levels cannot change'),
  GanttDependenciesOff: biz(290031, '该甘特图不保存任务依赖', 'This Gantt chart keeps no task links'),
  GanttDependencyCycle: biz(290032, '任务依赖不能形成循环：后续任务已经是它的前置任务', 'Task links cannot make a loop: the later task already leads to this one'),
  // 28005x workflow designer (docs/decisions/0018)
  WorkflowDryRunNoTemplate: biz(280050, '还没有可试运行的流程设计，请先设计并保存', 'There is no workflow design to try yet: design and save one first'),
  WorkflowDryRunOriginatorInvalid: biz(280051, '试运行的发起人不存在或已停用', 'The originator of the dry run does not exist or is disabled'),
  // 28007x flow center (docs/decisions/0019)
  RapidApproveNotApprove: biz(280070, '只有审批待办可以快速审批，请打开表单处理', 'Only approval items can be approved in a batch: open the form to handle this one'),
  RapidApproveNeedsForm: biz(280071, '该节点有必填字段，请打开表单处理', 'This step has required fields: open the form to handle it'),
  LegacyActionUnknown: biz(280072, '不支持的操作', 'Unknown action'),
  // 3100xx reminders (docs/decisions/0019)
  RemindTaskNotFound: biz(310001, '提醒不存在', 'The reminder does not exist', 404),

  // 3000xx Excel import and export tasks (docs/decisions/0020)
  DataPortTaskNotFound: biz(300001, '导入导出任务不存在', 'The import or export task does not exist', 404),
  DataPortTaskNotCancellable: biz(300002, '只有等待中的任务可以取消', 'Only a waiting task can be cancelled'),
  DataPortTaskNotRetryable: biz(300003, '只有超时的任务可以重试', 'Only a timed-out task can be retried'),
  DataPortFileUnreadable: biz(300004, '无法读取文件，请上传 .xlsx 或 .csv 文件', 'The file cannot be read: upload an .xlsx or .csv file'),
  DataPortFileEmpty: biz(300005, '文件没有表头或数据', 'The file has no header row or no data'),
  DataPortMappingInvalid: biz(300006, '列与字段的对应有误', 'The mapping of columns to fields is not valid'),
  DataPortKeyInvalid: biz(300007, '匹配字段无效（须为已对应的主表字段）', 'The key field is not valid: it must be a mapped main-table field'),
  DataPortDataStateUnsupported: biz(300008, '只有流程表单可以导入为“进行中”', 'Only a workflow form can import data as Processing'),
  DataPortNoDownload: biz(300009, '该任务没有可下载的文件', 'This task has no file to download'),
  DataPortColumnInvalid: biz(300010, '导出列无效', 'An export column is not valid'),

  // 300100–300119 rolling back an import (docs/decisions/0031)
  DataPortRollbackNotImport: biz(300100, '只有导入任务可以回滚', 'Only an import task can be rolled back'),
  DataPortRollbackNotEnded: biz(300101, '导入尚未结束，请等待其完成或超时后再回滚', 'The import has not ended: roll it back once it has finished or timed out'),
  DataPortRollbackDone: biz(300102, '该导入已回滚，不能再次回滚', 'This import has been rolled back already'),
  DataPortRollbackRunning: biz(300103, '该导入正在回滚', 'This import is being rolled back'),
  DataPortTaskRolledBack: biz(300104, '已回滚（或正在回滚）的导入不能重试', 'An import that was rolled back (or is being rolled back) cannot be retried'),

  // 3200xx open API: engine secrets and POST /OpenApi/Invoke (docs/decisions/0021)
  OpenApiAuthFailed: biz(320001, 'EngineCode 或 EngineSecret 无效', 'The EngineCode or EngineSecret is not valid', 401),
  OpenApiUnknownAction: biz(320002, '不支持的 ActionName', 'This ActionName is not supported'),
  OpenApiBadRequest: biz(320003, '请求参数无效', 'The request parameters are not valid'),
  OpenApiTooManyRows: biz(320004, '每次最多读取或创建 500 条数据', 'At most 500 records can be read or created in one call'),
  EngineSecretNotFound: biz(320005, '密钥不存在或已撤销', 'The secret does not exist or has been revoked', 404),
  EngineSecretLimit: biz(320006, '最多同时保留 10 个有效密钥', 'At most 10 active secrets can be kept at a time'),

  // 3201xx open API compatibility: OwnerId, attachments (docs/decisions/0030)
  OpenApiOwnerInvalid: biz(320100, 'OwnerId 不是本组织的在职用户', 'OwnerId does not name an active user of this organization'),
  OpenApiFileFieldInvalid: biz(320101, 'FilePropertyName 不是该表单的附件或图片字段', 'FilePropertyName is not an attachment or image field of this form'),
  OpenApiUploadInvalid: biz(320102, '上传须为 multipart/form-data，文件放在 media 字段中', 'The upload must be multipart/form-data with the file in the media field'),

  // 3300xx form permissions: permission groups, actions, data scopes and field rights (docs/decisions/0037)
  PermissionActionDenied: biz(330001, '您没有该表单的“{action}”权限', 'You do not have the "{actionEn}" right on this form', 403),
  PermissionFieldReadOnly: biz(330002, '“{displayName}”对您只读，不能修改', '"{displayName}" is read-only for you and cannot be changed', 403),
  PermissionGroupNotFound: biz(330003, '权限组不存在', 'The permission group does not exist', 404),
  PermissionGroupInvalid: biz(330004, '权限组设置无效', 'The permission group settings are not valid'),
  PermissionGroupLimit: biz(330005, '每个表单最多 50 个权限组', 'A form holds at most 50 permission groups'),

  // 3301xx public fill-in links (issue 19, ExternalForm; docs/decisions/0043)
  PublicLinkNotFound: biz(330101, '链接不存在或已失效', 'The link does not exist or no longer works', 404),
  PublicLinkClosed: biz(330102, '该表单已停止收集（已过期或已达到提交上限）', 'This form no longer takes submissions (expired or full)'),
  PublicLinkPassword: biz(330103, '访问密码不正确', 'The password is not correct', 403),
  ShareLinkExpired: biz(330104, '该分享已过期', 'This share has expired'),
  OpenQueryIncomplete: biz(330106, '请填写全部查询条件', 'Fill in every query condition'),
  ShortLinkTarget: biz(330105, '短链接只能指向本站的页面', 'A short link can only point to a page of this site'),

  // 3400xx notification channels: e-mail, SMS and robot settings of an engine (issue 20)
  NotificationChannelInvalid: biz(340001, '通知渠道设置无效：{reason}', 'The notification channel settings are not valid: {reasonEn}'),
  NotificationChannelNotConfigured: biz(340002, '该通知渠道尚未设置或未启用', 'This notification channel is not set up or not enabled'),
  NotificationRobotNotFound: biz(340003, '机器人不存在', 'The robot does not exist', 404),
  NotificationRobotLimit: biz(340004, '每个组织最多 20 个机器人', 'An organisation holds at most 20 robots'),
  NotificationSecretUnreadable: biz(340005, '已保存的密码或密钥无法解密（服务器密钥已更换？），请重新填写', 'A saved password or secret cannot be decrypted (was the server key changed?): enter it again'),
  NotificationTestAddressMissing: biz(340006, '没有可用于测试的收件地址，请填写测试收件人', 'There is no address to send the test to: enter a test recipient'),
  MessageRecipientLimit: biz(340007, '短信或邮件每次最多发送给 {max} 个收件人，本次有 {count} 个', 'An SMS or e-mail goes to at most {max} recipients; this one has {count}'),

  // 3401xx the message center and notification preferences (docs/decisions/0038; 3400xx are the outside channels')
  InternalMessageNotFound: biz(340101, '消息不存在', 'The message does not exist', 404),
  NotificationDefaultsAdminOnly: biz(340102, '只有系统管理员可以修改组织的默认通知设置', 'Only an administrator can change the organization\'s notification defaults', 403),
  NotificationCategoryRepeated: biz(340103, '同一消息类型只能设置一次', 'Each message category can be set only once'),
  LiveStreamLimit: biz(340104, '打开的实时连接过多，请关闭部分页面后重试', 'Too many live connections are open; close some pages and try again', 429),

  // 3500xx full-text search (docs/decisions/0040)
  SearchKeywordTooShort: biz(350001, '请输入至少 {min} 个字符再搜索', 'Type at least {min} characters to search'),

  // 3900xx print templates and print jobs (issue 24; docs/decisions/0050)
  PrintTemplateNotFound: biz(390001, '打印模板不存在', 'The print template does not exist', 404),
  PrintTemplateLimit: biz(390002, '每个表单最多 {max} 个打印模板', 'A form holds at most {max} print templates'),
  PrintTemplateFieldUnknown: biz(390003, '模板引用了表单中没有的字段“{field}”', 'The template uses a field the form does not have: "{field}"'),
  PrintTaskNotFound: biz(390004, '打印任务不存在', 'The print task does not exist', 404),
  PrintTaskNotRetryable: biz(390005, '只有出错的打印任务可以重试', 'Only a print task that ended in error can be retried'),
  PrintBatchTooLarge: biz(390006, '一次最多打印 {max} 条数据', 'At most {max} records can be printed at once'),
  PrintNothingToPrint: biz(390007, '没有可打印的数据', 'There is nothing to print'),
  PrintFileExpired: biz(390008, '打印文件已过期，请重新打印', 'The printed file has expired: print again'),
  PrintTemplateNameTaken: biz(390009, '模板名称已被使用', 'This template name is in use already'),
  PrintExcelTemplateLimit: biz(390010, '每个表单最多 {max} 个 Excel 模板', 'A form holds at most {max} Excel templates'),
  PrintExcelTemplateNotFound: biz(390011, 'Excel 模板不存在', 'The Excel template does not exist', 404),
  PrintExcelFileUnreadable: biz(390012, '无法读取 Excel 模板，请上传 .xlsx 文件', 'The Excel template cannot be read: upload an .xlsx file'),

  // 3600xx automations and smart actions (issue 21; docs/decisions/0041)
  AutomationNotFound: biz(360001, '自动化不存在', 'The automation does not exist', 404),
  AutomationLimit: biz(360002, '每个表单最多 {max} 个自动化', 'A form holds at most {max} automations'),
  AutomationInvalid: biz(360003, '自动化设置有误：{reason}', 'The automation is not valid: {reasonEn}'),
  AutomationPluginMissing: biz(360004, '“{action}”需要安装对应插件后才能使用', '“{action}” needs its plugin to be installed'),
  AutomationWebhookToken: biz(360005, '自动化的调用凭证不正确', 'The automation\'s token is not correct', 401),
  AutomationNotRunnable: biz(360006, '该自动化不能手动执行（仅按钮或自定义触发的自动化可以）', 'This automation cannot be run by hand (only button and custom triggers can)'),
  AutomationDisabled: biz(360007, '该自动化已停用', 'This automation is disabled'),
  AutomationRunNotFound: biz(360008, '执行记录不存在', 'The run does not exist', 404),
  AutomationRunNotRetryable: biz(360009, '只有执行失败的记录可以重试', 'Only a failed run can be retried'),
  SmartActionForbidden: biz(360010, '您没有权限执行该操作', 'You may not run this action', 403),
  AutomationSystemAdminOnly: biz(360011, '只有系统管理员可以设置或修改以系统身份运行的自动化', 'Only an administrator can set up or change an automation that runs as the system', 403),
  // 3700xx reports and dashboards (issue 22; docs/decisions/0044)
  ReportFieldUnavailable: biz(370001, '字段“{field}”不存在或您无权查看，不能用作维度或指标', 'The field "{field}" does not exist or is hidden from you: it cannot be a dimension or a measure'),
  ReportFieldNotAggregatable: biz(370002, '字段“{field}”不能用作{usage}', 'The field "{field}" cannot be used as {usageEn}'),
  ReportNotBoardNode: biz(370003, '该节点不是报表或仪表盘', 'This node is not a report or a dashboard'),
  ReportSourceMissing: biz(370004, '组件“{title}”没有选择数据来源', 'The widget "{title}" has no data source'),
  ReportDesignDenied: biz(370005, '只有应用管理员可以设计报表和仪表盘', 'Only the app\'s administrators can design reports and dashboards', 403),
  // 4100xx script runs (issue 43; docs/decisions/0118): the script's own refusal is shown as it wrote it
  ScriptRefused: biz(410001, '{message}', '{message}'),
  ScriptError: biz(410002, '脚本运行出错：{message}', 'The script failed: {message}'),
  ScriptTimeout: biz(410003, '脚本运行超时（超过 {limitMs} 毫秒），已停止', 'The script ran too long (over {limitMs} ms) and was stopped'),
  ScriptMemoryLimit: biz(410004, '脚本使用的内存超过上限（{limitMb} MB），已停止', 'The script used more memory than allowed ({limitMb} MB) and was stopped'),
  ScriptActionNotFound: biz(410005, '表单或应用的代码中没有动作“{actionName}”', 'The code of the form or app has no action "{actionName}"'),
  ScriptBusy: biz(410006, '服务器上等待运行的脚本过多，请稍后再试', 'Too many scripts are waiting to run on the server; try again later', 429),
  // 4200xx connections and connectors (issue 44; docs/decisions/0120): calls that leave the platform
  ConnectionNotFound: biz(420001, '连接“{code}”不存在', 'The connection "{code}" does not exist'),
  ConnectionDisabled: biz(420002, '连接“{name}”已停用，请先启用', 'The connection "{name}" is disabled; enable it first'),
  ConnectionCodeTaken: biz(420003, '编码“{code}”已被其他连接使用', 'The code "{code}" is already used by another connection'),
  ConnectionInUse: biz(420004, '连接“{name}”下还有 {count} 个连接器，请先删除它们', 'The connection "{name}" still has {count} connectors; remove them first'),
  ConnectorNotFound: biz(420005, '连接器“{code}”不存在', 'The connector "{code}" does not exist'),
  ConnectorCodeTaken: biz(420006, '编码“{code}”已被其他连接器使用', 'The code "{code}" is already used by another connector'),
  OutsideCallFailed: biz(420007, '外部系统返回错误（HTTP {status}）', 'The outside system answered with an error (HTTP {status})'),
  OutsideCallTimeout: biz(420008, '外部系统在 {seconds} 秒内没有响应', 'The outside system did not answer within {seconds} s'),
  OutsideAddressRefused: biz(420009, '地址“{host}”属于平台内部网络，不允许访问', 'The address "{host}" is inside the platform\'s own network and may not be reached'),
  OutsideUnreachable: biz(420010, '无法连接外部系统：{message}', 'The outside system cannot be reached: {message}'),
  OutsideAnswerTooLarge: biz(420011, '外部系统的响应超过 {limitKb} KB', 'The outside system\'s answer is larger than {limitKb} KB'),
  OutsideTokenFailed: biz(420012, '从外部系统获取访问令牌失败：{message}', 'No access token from the outside system: {message}'),
  ConnectorNotChosen: biz(420013, '“{name}”尚未选择连接器', '"{name}" has no connector chosen'),
  ConnectionSecretUnreadable: biz(420014, '连接“{name}”保存的密钥无法读取，请重新填写', 'The secrets stored for the connection "{name}" cannot be read; enter them again'),
  // 4300xx plugins (issue 44; docs/decisions/0123)
  PluginNotInstalled: biz(430001, '插件“{name}”未安装，请管理员在“插件管理”中安装', 'The plugin "{name}" is not installed; an administrator installs it on the Plugins page'),
  PluginSecretUnreadable: biz(430002, '插件“{name}”保存的密钥无法读取，请重新填写', 'The secrets stored for the plugin "{name}" cannot be read; enter them again'),
  PluginNotFound: biz(430003, '插件“{code}”不存在', 'The plugin "{code}" does not exist'),
  PluginUnavailable: biz(430004, '插件“{name}”暂不能安装：{reasonZh}', 'The plugin "{name}" cannot be installed yet: {reasonEn}'),
  PluginSettingRequired: biz(430005, '请填写插件设置“{label}”', 'Fill in the plugin setting "{key}"'),
  PluginVerifyFailed: biz(430006, '插件“{name}”安装检查未通过：{message}', 'The plugin "{name}" failed its install check: {message}'),
  PluginMethodNotOffered: biz(430007, '插件“{name}”不提供方法“{method}”', 'The plugin "{name}" offers no method "{method}"'),
  PluginMethodUnavailable: biz(430008, '插件“{name}”的方法“{method}”尚未开放', 'The method "{method}" of the plugin "{name}" is not available yet'),
  PluginNotPublished: biz(430009, '插件“{name}”尚未发布，发布后才能安装', 'The plugin "{name}" is not published; it can be installed once published'),
  PluginPublicationRefused: biz(430010, '插件“{name}”当前为“{stateZh}”，不能{actionZh}', 'The plugin "{name}" is {stateEn}; it cannot be {actionEn}'),
  PluginCodeTaken: biz(430011, '编码“{code}”已被其他插件使用', 'The code "{code}" is already used by another plugin'),
  PluginInstalledLocked: biz(430012, '插件“{name}”已安装，请先卸载', 'The plugin "{name}" is installed; uninstall it first'),
  PluginAlreadyInstalled: biz(430013, '插件“{name}”已安装，可直接修改设置', 'The plugin "{name}" is already installed; change its settings instead'),
  PluginInstallBusy: biz(430014, '插件“{name}”正在安装，请稍后再试', 'The plugin "{name}" is being installed; try again shortly'),
  PluginParamsInvalid: biz(430015, '插件“{name}”的调用参数“{param}”无效', 'The parameter "{param}" of the call to the plugin "{name}" is invalid'),
  PluginSettingNotUrl: biz(430016, '插件设置“{label}”须是以 http:// 或 https:// 开头的地址', 'The plugin setting "{key}" must be an address starting with http:// or https://'),
  PluginSettingNotNumber: biz(430017, '插件设置“{label}”须是数字', 'The plugin setting "{key}" must be a number'),
  PluginSettingNotChoice: biz(430018, '插件设置“{label}”须是给定选项之一', 'The plugin setting "{key}" must be one of its choices'),
  PluginSettingUnknown: biz(430019, '插件没有设置项“{key}”', 'The plugin has no setting "{key}"'),
  PluginOutputUnknown: biz(430020, '连接器“{connector}”没有输出“{output}”', 'The connector "{connector}" has no output "{output}"'),
  // 4200xx continued: the inbound connector trigger and the data-source node (420015–420039)
  InboundUnsigned: biz(420015, '请求未签名：缺少 X-Signature、X-Timestamp 或 X-Delivery-Id 请求头', 'The delivery is not signed: the X-Signature, X-Timestamp or X-Delivery-Id header is missing', 401),
  InboundSignatureInvalid: biz(420016, '签名不正确', 'The signature is not correct', 401),
  InboundExpired: biz(420017, '请求时间戳超出 {seconds} 秒的有效期，请校准发送方时钟后重发', 'The delivery\'s timestamp is more than {seconds} s away; check the sender\'s clock and send it again', 401),
  InboundDeliveryIdInvalid: biz(420018, '投递编号只能包含字母、数字和 ._:-，最多 100 个字符', 'The delivery id may hold letters, digits and ._:- only, at most 100 characters'),
  InboundBodyInvalid: biz(420019, '请求体不是 JSON 对象', 'The body is not a JSON object'),
  InboundNotConnectorTrigger: biz(420020, '只有连接器触发的自动化有签名密钥', 'Only automations triggered by a connector have a signing secret'),
  DataSourceNotConfigured: biz(420021, '数据源“{name}”尚未配置，请应用管理员先设置', 'The data source "{name}" is not set up yet; an app administrator sets it up first'),
  DataSourceNotNode: biz(420022, '“{code}”不是数据源', '"{code}" is not a data source', 404),
  DataSourceConnectorMethod: biz(420023, '数据源只能使用 GET 或 POST 连接器，“{name}”是 {method}', 'A data source uses a GET or POST connector; "{name}" is {method}'),
  DataSourceNoListOutput: biz(420024, '连接器“{name}”没有名为“{output}”且带列表字段的输出', 'The connector "{name}" has no list output "{output}" with item fields'),
  DataSourceColumnUnknown: biz(420025, '列表输出“{output}”没有字段“{field}”', 'The list output "{output}" has no field "{field}"'),
  DataSourcePlaceUnknown: biz(420026, '连接器“{name}”的地址和参数中没有占位 {{{place}}}', 'The connector "{name}" has no place {{{place}}} in its path or parameters'),
  DataSourceOutputUnknown: biz(420027, '连接器“{name}”没有输出“{output}”', 'The connector "{name}" has no output "{output}"'),
  DataSourceDesignDenied: biz(420028, '只有应用管理员可以设置数据源', 'Only the app\'s administrators may set up its data sources', 403),
  DataSourceAnswerNotList: biz(420029, '外部系统返回的“{output}”不是列表', 'The outside system\'s "{output}" is not a list'),
  DataSourceFilterUnknown: biz(420030, '数据源没有筛选条件“{place}”', 'The data source offers no filter "{place}"'),
  // 4400xx payment (issue 44)
  PaymentControlInvalid: biz(440001, '“{name}”不是本表单的在线支付控件', '"{name}" is not a payment control of this form'),
  PaymentFieldsNotSet: biz(440002, '支付控件“{name}”尚未设置金额字段，请在表单设计中选择', 'The payment control "{name}" has no amount field; choose one in the form designer'),
  PaymentAmountInvalid: biz(440003, '“{field}”的值不能用于支付：须大于 0、最多两位小数且不超过 10000000 元', 'The value of "{field}" cannot be paid: it must be over 0, have at most two decimals and be at most 10000000'),
  PaymentOrderNotFound: biz(440004, '支付订单“{orderNo}”不存在', 'The payment order "{orderNo}" does not exist'),
  PaymentStateNotAllowed: biz(440005, '订单当前为“{state}”，不能{action}', 'The order is {stateEn}; it cannot be {actionEn}'),
  PaymentRefundTooMuch: biz(440006, '退款金额超过可退金额 {refundable} 元', 'The refund is more than the {refundable} that may still be refunded'),
  PaymentRefundNotAllowed: biz(440007, '只有应用管理员或记录的拥有者可以退款', 'Only the app\'s administrators or the record\'s owner may refund'),
  PaymentGatewayRefused: biz(440008, '支付平台拒绝了请求：{subMsg}（{subCode}）', 'The payment provider refused: {subMsg} ({subCode})'),
  PaymentGatewaySignatureInvalid: biz(440009, '支付平台应答的签名校验失败，未做任何修改', 'The payment provider\'s answer failed its signature check; nothing was changed'),
  PaymentGatewayUnreachable: biz(440010, '无法连接支付平台：{message}', 'The payment provider cannot be reached: {message}'),
  PaymentGatewayTimeout: biz(440011, '支付平台在 {seconds} 秒内没有响应', 'The payment provider did not answer within {seconds} s'),
  PaymentNotifyRejected: biz(440012, '支付通知的签名校验失败或与订单不符，未做任何修改', 'The payment notification failed its signature check or does not match the order; nothing was changed', 400),
  PaymentSettingsInvalid: biz(440013, '在线支付插件的设置“{setting}”有误，请管理员检查', 'The payment plugin\'s setting "{setting}" is wrong; an administrator checks it'),
  PaymentAddressRefused: biz(440014, '支付网关地址“{host}”属于平台内部网络，不允许访问', 'The gateway address "{host}" is inside the platform\'s own network and may not be reached'),
  PaymentSubjectEmpty: biz(440015, '订单标题为空：请填写“{field}”', 'The order has no subject: fill in "{field}"'),
  // 4500xx e-signature (issue 44)
  ESignFlowNotFound: biz(450001, '签署流程不存在', 'The signing flow does not exist'),
  ESignControlNotFound: biz(450002, '表单中没有电子签章控件“{code}”', 'The form has no e-sign control "{code}"'),
  ESignAttachmentInvalid: biz(450003, '电子签章“{name}”指定的“{code}”不是本表单的附件控件', 'The e-sign control "{name}" names "{code}", which is not an attachment control of this form'),
  ESignSignersInvalid: biz(450004, '签署人无效：{problem}', 'The signers are not valid: {problem}'),
  ESignFlowRunning: biz(450005, '该记录的“{name}”已有进行中的签署流程，请先撤销', 'The record\'s "{name}" already has a signing flow under way; revoke it first'),
  ESignNotInitiator: biz(450006, '只有发起人可以撤销签署流程', 'Only the person who started the signing flow may revoke it'),
  ESignFlowClosed: biz(450007, '签署流程已结束（{state}），不能撤销', 'The signing flow has ended ({state}) and cannot be revoked'),
  ESignCallbackRejected: biz(450008, '电子签章回调的签名不正确，已拒绝', 'The e-sign callback\'s signature is not correct; it was refused', 401),
  ESignProviderFailed: biz(450009, '电子签章服务返回错误：{message}', 'The e-sign provider answered with an error: {message}'),
  ESignCallbackUnknown: biz(450011, '电子签章回调指向的签署流程不存在', 'The e-sign callback names a signing flow that does not exist'),
  // 4600xx work notifications in the chat apps and attendance (issue 44)
  ChatAppPlatformNotReady: biz(460001, '{name}应用尚未配置或未启用，请先在“登录设置”中填写 AppKey、AppSecret 与 AgentId', 'The {nameEn} app is not set up or not enabled; fill in its AppKey, AppSecret and AgentId under Sign-in settings first'),
  ChatAppNoPlatform: biz(460002, '启用工作通知时请至少选择一个平台', 'Choose at least one platform to switch work notifications on'),
  ChatAppReturnNotAllowed: biz(460003, '链接要打开的地址不属于本站', 'The address the link opens is not on this site'),
  AttendanceSettingsInvalid: biz(460004, '考勤步骤设置有误：{reason}', 'The attendance step is not valid: {reasonEn}'),
  AttendancePlatformFailed: biz(460005, '读取{name}打卡记录失败：{reason}', 'Reading the punch records of {nameEn} failed: {reason}'),
  ChatAppTestNoAccount: biz(460006, '你没有绑定{name}账号（通过{name}登录或通讯录同步后即可绑定），无法收到测试消息', 'You have no {nameEn} account bound here (sign in with {nameEn} or sync the directory first), so the test message cannot reach you'),
  // 4700xx face check (issue 44)
  FacePhotoMissing: biz(470001, '“{name}”还没有留存人脸照片，请管理员在“组织架构”中编辑该成员并上传人脸照片', '"{name}" has no stored face photo yet; an administrator uploads one by editing the member on the Organisation page'),
  FaceImageInvalid: biz(470002, '照片不是可识别的图片，请使用 JPG、PNG 或 BMP 格式', 'The photo is not a picture that can be read; use JPG, PNG or BMP'),
  FaceImageTooLarge: biz(470003, '照片超过 {limitMb} MB，请重新拍摄或换一张较小的照片', 'The photo is larger than {limitMb} MB; take it again or use a smaller one'),
  FaceNotFound: biz(470004, '照片中没有检测到人脸，请正对镜头、光线充足时重新拍摄', 'No face was found in the photo; face the camera in good light and take it again'),
  FaceProviderAuthFailed: biz(470005, '人脸识别服务认证失败（{code}），请管理员检查插件的 SecretId 和 SecretKey', 'The face recognition service refused the credentials ({code}); an administrator checks the plugin\'s SecretId and SecretKey'),
  FaceProviderFailed: biz(470006, '人脸识别服务返回错误：{message}（{code}）', 'The face recognition service answered with an error: {message} ({code})'),
  FaceProviderAnswerInvalid: biz(470007, '人脸识别服务的响应无法识别', 'The face recognition service\'s answer cannot be read'),
  FaceCheckRequired: biz(470008, '“{name}”须通过人脸比对后填写，请重新比对', '"{name}" is filled by passing a face check; check again'),
  FaceControlNotFound: biz(470009, '表单中没有人脸识别控件“{code}”', 'The form has no face recognition control "{code}"'),
  FacePersonRequired: biz(470010, '请选择要比对的人员', 'Choose the person to compare with'),
  FacePersonNotFound: biz(470011, '要比对的人员不存在', 'The person to compare with does not exist'),
  FaceCheckNotYours: biz(470012, '只能比对自己的人脸', 'This control only checks your own face'),
  // 4800xx AI (issue 45; docs/decisions/0124)
  AiNotConfigured: biz(480001, '尚未配置 AI 服务，请管理员在“AI 设置”中填写接口地址、密钥和模型', 'No AI service is configured; an administrator sets its address, key and model under AI settings'),
  AiDisabled: biz(480002, 'AI 功能已停用', 'The AI features are turned off'),
  AiQuotaExhausted: biz(480003, 'AI 额度已用完（共 {quotaTokens} tokens），请管理员增加额度', 'The AI credit is used up ({quotaTokens} tokens); an administrator can add more', 429),
  AiRateLimited: biz(480004, '调用 AI 过于频繁（每分钟最多 {perMinute} 次），请稍后再试', 'Too many AI calls (at most {perMinute} a minute); try again shortly', 429),
  AiProviderFailed: biz(480005, 'AI 服务返回错误：{message}', 'The AI service answered with an error: {message}'),
  AiProviderUnreachable: biz(480006, '无法连接 AI 服务：{message}', 'The AI service cannot be reached: {message}'),
  AiIdentityMismatch: biz(480007, '请求中的组织或用户与当前登录身份不一致', 'The organisation or user in the request is not the one signed in', 403),
  AiExtractionNothing: biz(480008, '该表单没有可由文字填写的字段', 'The form has no field a text could fill'),
  AiVisionNotConfigured: biz(480009, '尚未配置视觉模型，不能识别图片；请管理员在“AI 设置”中填写', 'No vision model is configured to read pictures; an administrator sets one under AI settings'),
  AiImageInvalid: biz(480010, '只能识别 JPG、PNG 或 WebP 图片，且不超过 {limitMb} MB', 'Only JPG, PNG or WebP pictures of at most {limitMb} MB can be read'),
  // 4801xx OCR on the machine and recognition templates (issue 45)
  OcrImageInvalid: biz(480101, '只能识别 JPG、PNG 或 WebP 图片，且不超过 {limitMb} MB、4000 万像素', 'Only JPG, PNG or WebP pictures of at most {limitMb} MB and 40 megapixels can be read'),
  OcrBusy: biz(480102, '识别任务较多，请稍后再试', 'Text recognition is busy; try again shortly', 429),
  OcrFailed: biz(480103, '文字识别失败：{message}', 'Text recognition failed: {message}'),
  OcrTemplateNotFound: biz(480104, '识别模板“{templateCode}”不存在', 'The recognition template "{templateCode}" does not exist', 404),
  OcrTemplateBuiltIn: biz(480105, '内置识别模板“{name}”不能修改或删除', 'The built-in recognition template "{name}" cannot be changed or removed'),
  OcrTemplateCodeTaken: biz(480106, '识别模板编码“{templateCode}”已被使用', 'The recognition template code "{templateCode}" is already used'),
  OcrTemplateInvalid: biz(480107, '识别模板的字段“{field}”有误：{reason}', 'The recognition template\'s field "{field}" is wrong: {reason}'),
  OcrTemplateForbidden: biz(480108, '只有管理员或应用创建者可以管理识别模板', 'Only administrators and app creators may manage recognition templates', 403),
  OcrTemplateLimit: biz(480109, '识别模板最多 {max} 个', 'At most {max} recognition templates'),
  OcrControlInvalid: biz(480110, '“{control}”不是可识别的 OCR 控件，或尚未选择识别模板', '"{control}" is not an OCR control, or no recognition template is chosen for it'),
  // 4802xx an app from a description, a record drafted from a conversation, PDF extraction (issue 45)
  AiAppProposalInvalid: biz(480201, '应用方案有误，未创建任何内容：{reason}', 'The app proposal is not valid and nothing was created: {reason}'),
  AiAppCreateForbidden: biz(480202, '只有管理员和应用创建者可以用 AI 生成应用', 'Only administrators and app creators may generate an app with AI', 403),
  AiPdfNoText: biz(480203, '这个 PDF 没有文字层（可能是扫描件），无法读取文字；请上传图片或粘贴文字', 'This PDF has no text layer (it may be a scan); upload a picture or paste the text instead'),
  AiPdfTooLarge: biz(480204, 'PDF 最多 {maxPages} 页、{limitMb} MB', 'A PDF has at most {maxPages} pages and {limitMb} MB'),
  AiPdfUnreadable: biz(480205, '无法读取这个 PDF（文件已损坏或有密码）', 'This PDF cannot be read (it is damaged or has a password)'),
  // 4900xx backup and restore (issue 49)
  BackupEngineNotFound: biz(490001, '组织 {engineCode} 不存在，无法备份', 'There is no organisation {engineCode} to back up'),
  BackupUnreadable: biz(490002, '该文件不是 Tritium 备份文件', 'The file is not a Tritium backup'),
  BackupFileDamaged: biz(490003, '备份文件已损坏或不完整：{reason}', 'The backup file is damaged or incomplete: {reasonEn}'),
  BackupFormatNewer: biz(490004, '备份文件的格式版本 {version} 比本平台支持的版本 {supported} 新，请先升级平台再恢复', 'The backup file is of format version {version}, newer than the {supported} this platform reads: upgrade the platform first'),
  BackupMigrationNewer: biz(490005, '备份来自更新版本的平台（含本平台没有的迁移 {migration}），请先升级平台再恢复', 'The backup comes from a newer platform (migration {migration} is unknown here): upgrade the platform first'),
  RestoreEngineExists: biz(490006, '组织代码 {engineCode} 已被使用，请用 --as 指定一个新的组织代码', 'The organisation code {engineCode} is taken: give a new one with --as'),
  RestoreEngineCodeInvalid: biz(490007, '组织代码 {engineCode} 无效：应为 4–32 位小写字母或数字', 'The organisation code {engineCode} is not valid: 4 to 32 lower-case letters or digits'),
  RestorePlatformNotEmpty: biz(490008, '平台中已有组织或账号，整个平台的备份只能恢复到空的平台', 'The platform already has organisations or accounts: a whole platform\'s backup is restored only into an empty platform'),
  BackupFileMissing: biz(490009, '找不到备份文件 {file}', 'The backup file {file} is not there'),
  // 4910xx the storage change and its migration job (issue 50)
  // 5000xx app packages: export, file import, install, uninstall (issue 46; docs/decisions/0130)
  AppPackageNotAPackage: biz(500001, '不是应用包文件：{reason}', 'Not an app package file: {reason}'),
  AppPackageTampered: biz(500002, '应用包已被改动或损坏：{entry} 的校验值不符', 'The app package was changed or damaged: the checksum of {entry} does not match'),
  AppPackageNewerFormat: biz(500003, '应用包的格式版本 {formatVersion} 比本平台支持的 {supported} 新，请先升级平台', 'The app package\'s format version {formatVersion} is newer than the {supported} this platform reads: upgrade the platform first'),
  AppPackageNewerSchema: biz(500004, '应用包需要本平台还没有的数据库版本 {migration}，请先升级平台', 'The app package needs the database version {migration}, which this platform does not have yet: upgrade the platform first'),
  AppPackageTooLarge: biz(500005, '应用包超过 {maxBytes} 字节的上限', 'The app package is larger than the limit of {maxBytes} bytes'),
  AppPackageInvalid: biz(500006, '应用包的内容不正确', 'The app package\'s content is not valid'),
  AppPackageNotFound: biz(500007, '找不到应用包 {packageId}', 'App package {packageId} was not found', 404),
  AppPackageBlocked: biz(500008, '应用不能打包：{count} 处问题', 'The app cannot be packaged: {count} problems'),
  AppPackageExternalFormsUnmapped: biz(500009, '应用包引用了应用之外的表单，请为每个选择本组织的表单：{codes}', 'The app package names forms outside the app: choose a form of this organisation for each: {codes}'),
  AppPackageForbidden: biz(500010, '只有管理员和应用创建者可以导出或安装应用包', 'Only administrators and app creators may export or install app packages', 403),
  AppPackageInstallNotFound: biz(500011, '找不到安装任务 {actionId}', 'Install task {actionId} was not found', 404),
  AppPackageInstallNotCancelable: biz(500012, '安装任务已结束，不能取消', 'The install task has ended and cannot be canceled'),
  AppPackageMappingInvalid: biz(500013, '映射的表单 {code} 不存在或不是表单', 'The mapped form {code} does not exist or is not a form'),
  // 5001xx templates, the template market, sharing between engines, sample data (issue 46; docs/decisions/0131)
  TemplateNotFound: biz(500101, '模板不存在，或没有共享给本组织', 'The template does not exist, or was not shared with this organisation', 404),
  TemplateNameTaken: biz(500102, '已有名为「{name}」的模板，请换一个名称', 'A template named "{name}" exists already: choose another name'),
  TemplatePublishForbidden: biz(500103, '只有管理员或管理该应用的应用创建者可以发布或共享模板', 'Only an administrator, or an app creator administering the app, may publish or share it as a template', 403),
  TemplatePlatformScopeForbidden: biz(500104, '只有平台运营者可以发布或删除平台模板', 'Only the platform\'s operators may publish or remove platform templates', 403),
  TemplatePublishBlocked: biz(500105, '该应用暂不能发布为模板：{reason}', 'The app cannot be published as a template yet: {reason}'),
  TemplatePictureInvalid: biz(500106, '截图 {fileId} 不可用：请上传图片（jpg、png、gif、webp）后再发布', 'Picture {fileId} cannot be used: upload an image (jpg, png, gif, webp) first'),
  TemplateInstallForbidden: biz(500107, '只有管理员或应用创建者可以安装模板', 'Only an administrator or an app creator may install a template', 403),
  TemplateRemoveForbidden: biz(500108, '只有发布模板的组织的管理员可以删除它，内置模板不能删除', 'Only an administrator of the publishing organisation may remove a template; built-in templates stay', 403),
  ShareTargetInvalid: biz(500109, '组织 {engineCode} 不存在或不能接收共享（不能共享给本组织）', 'The organisation {engineCode} does not exist or cannot receive a share (not this organisation itself)'),
  ShareTargetsEmpty: biz(500110, '请选择要共享给的组织：本组织还没有关联组织', 'Choose the organisations to share with: this organisation has no associated organisations'),
  // 5002xx built-in templates (issue 46; docs/decisions/0132)
  BuiltinTemplateFailed: biz(500201, '内置模板“{template}”未能建成：{step}出错', 'The built-in template "{template}" could not be built: {step} failed'),
  // 4911xx imports and approvals throughput (issue 50; docs/decisions/0133)
  // 4101xx the code editor (issue 43; docs/decisions/0118)
  CodeVersionConflict: biz(410101, '代码已被他人保存为第 {currentVersion} 版，请先查看最新版本再保存', 'Someone else saved the code meanwhile (now version {currentVersion}): look at the latest version before saving'),
  CodeCompileFailed: biz(410102, '代码无法编译：第 {line} 行：{reason}', 'The code does not compile: line {line}: {reason}'),
  CodeVersionNotFound: biz(410103, '该版本不存在', 'The version does not exist', 404),
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorName = keyof typeof ERRORS;

const byCode = new Map<number, ErrorName>();
for (const [name, def] of Object.entries(ERRORS) as [ErrorName, ErrorDefinition][]) {
  if (byCode.has(def.code)) throw new Error(`duplicate error code ${def.code}`);
  byCode.set(def.code, name);
}

/** Finds the catalogue entry for a numeric code, if any. */
export function getErrorByCode(code: number): (ErrorDefinition & { name: ErrorName }) | undefined {
  const name = byCode.get(code);
  return name ? { ...ERRORS[name], name } : undefined;
}

export type Locale = 'zh-CN' | 'en-US';

export function errorMessage(name: ErrorName, locale: Locale = 'zh-CN'): string {
  const def: ErrorDefinition = ERRORS[name];
  return locale === 'en-US' ? def.en : def.zh;
}

/** Client-side codes of calls.md §8 (no numeric code). */
export const CLIENT_ERROR_CODES = {
  network: 'network.error',
  system: 'system.error',
  returnType: 'returnType.error',
  returnNull: 'returnNull.error',
  unknown: 'unknown.error',
  invalidParameter: 'webapi.parameter.invalid',
} as const;
