// Over 500 lines on purpose: the one typed map of every platform and engine table Kysely reads (one place to look).
import type { ColumnType, Generated, Kysely } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** platform.accounts: people who sign in, across engines. */
export interface AccountTable {
  id: string;
  mobile: string;
  name: string;
  password_hash: string | null;
  state: 'active' | 'disabled';
  failed_password_count: Generated<number>;
  locked_until: Date | null;
  /** Tokens issued before this moment are refused (password reset). */
  tokens_valid_after: Timestamp;
  last_engine_code: string | null;
  created_time: Timestamp;
}

/** platform.engines: organisations and their placement. */
export interface EngineTable {
  engine_code: string;
  engine_name: string;
  engine_type: string;
  entry_type: string;
  state: 'normal' | 'disabled' | 'migrating' | 'archived' | 'allocating';
  company_id: string;
  scale: string | null;
  logo_url: string | null;
  license_expires: Date | null;
  created_time: Timestamp;
}

/** platform.memberships: which account is which user in which engine. */
export interface MembershipTable {
  account_id: string;
  engine_code: string;
  user_id: string;
  is_external: boolean;
  joined_time: Timestamp;
}

export interface VerifyCodeTable {
  id: Generated<number>;
  mobile: string;
  scene: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: Date | null;
  created_time: Timestamp;
}

/** A counter that guards access (code sends per client address), per key and window (docs/decisions/0027). */
export interface AccessCounterTable {
  key: string;
  window_start: Timestamp;
  count: Generated<number>;
}

export interface RevokedTokenTable {
  jti: string;
  expires_at: Timestamp;
}

export interface FeatureSwitchTable {
  engine_code: string;
  name: string;
  value: string;
}

/** platform.settings: server-wide values shared by every process (the token signing secret). */
export interface SettingTable {
  name: string;
  value: string;
}

export interface ErrorLogTable {
  id: Generated<number>;
  engine_code: string | null;
  account_id: string | null;
  level: string;
  content: string;
  payload: unknown;
  log_time: Timestamp;
}

/** Tables of the engine schema e_<engineCode>. */
export interface OrgUnitTable {
  id: string;
  parent_id: string | null;
  unit_type: string;
  name: string;
  state: Generated<string>;
  is_external: Generated<boolean>;
  entry_id: string | null;
  sort_key: Generated<number>;
  created_time: Timestamp;
  /** The department's manager (an org_users id). */
  manager_id: string | null;
  /** Search keys computed on write from the name (pinyin-pro): full pinyin, initials, and the text /v1/org/search matches. */
  name_pinyin: Generated<string>;
  name_initials: Generated<string>;
  search_text: Generated<string>;
}

export interface OrgUserTable {
  id: string;
  account_id: string | null;
  name: string;
  mobile: string;
  auth_type: number;
  state: 'active' | 'disabled';
  is_external: Generated<boolean>;
  main_department_id: string | null;
  created_time: Timestamp;
  name_pinyin: Generated<string>;
  name_initials: Generated<string>;
  search_text: Generated<string>;
  /** Where the mail channel sends this user's notifications (issue 20). */
  email: Generated<string | null>;
  /** Employee number, a claim single sign-on can match (issue 25). */
  employee_no: Generated<string | null>;
}

/** A user's departments; exactly one is main, and it equals org_users.main_department_id. */
export interface OrgUserDepartmentTable {
  user_id: string;
  department_id: string;
  is_main: boolean;
  created_time: Timestamp;
}

export interface OrgRoleMemberTable {
  role_id: string;
  user_id: string;
  created_time: Timestamp;
}

export interface OrgUserPostTable {
  post_id: string;
  user_id: string;
  created_time: Timestamp;
}

/** platform.invitations: a number invited into an engine as one of its users, until that person signs in. */
export interface InvitationTable {
  engine_code: string;
  mobile: string;
  user_id: string;
  created_time: Timestamp;
}

/** platform.invitation_links: a link that lets whoever opens it join an engine (docs/decisions/0112). */
export interface InvitationLinkTable {
  id: string;
  engine_code: string;
  /** SHA-256 (hex) of the token; the token itself is not kept. */
  token_hash: string;
  department_id: string;
  created_by: string;
  expires_time: Timestamp;
  revoked_time: Timestamp | null;
  revoked_by: string | null;
  join_count: ColumnType<number, number | undefined, number>;
  created_time: Timestamp;
}

/** platform.sign_links: a one-use link for signing a hand-sign field on a phone (docs/decisions/0114). */
export interface SignLinkTable {
  id: string;
  engine_code: string;
  /** SHA-256 (hex) of the token; the token itself is not kept. */
  token_hash: string;
  created_by: string;
  schema_code: string;
  control_code: string;
  object_id: string | null;
  form_name: string;
  field_name: string;
  record_title: string | null;
  expires_time: Timestamp;
  used_time: Timestamp | null;
  file: ColumnType<{ id: string; name: string; size: number; contentType: string } | null, string | null | undefined, string | null>;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** platform.associated_orgs: an association link of a host engine, then the association with a partner (docs/decisions/0091). */
export interface AssociatedOrgTable {
  id: string;
  host_engine_code: string;
  associated_code: string;
  code_expires: Timestamp;
  partner_engine_code: string | null;
  /** The host's external department (under 外部组织) bound to the partner. */
  department_id: string | null;
  state: ColumnType<'pending' | 'active' | 'ended', 'pending' | 'active' | 'ended' | undefined, 'pending' | 'active' | 'ended'>;
  created_by: string;
  created_time: Timestamp;
  accepted_time: Timestamp | null;
  ended_time: Timestamp | null;
  ended_by_engine: string | null;
}

/** platform.associated_org_members: a partner's user working in the host as the host's external user. */
export interface AssociatedOrgMemberTable {
  association_id: string;
  partner_user_id: string;
  host_user_id: string;
  created_time: Timestamp;
}

/** platform.jobs: background jobs of every engine (architecture.md §4, docs/decisions/0004). */
/** Platform: when a pending task tip falls due (issues 20, 21). */
/** Platform: short codes for paths of this site (POST /v1/bizdata/shortlink; issue 19). */
export interface ShortLinkTable {
  code: string;
  engine_code: string;
  target: string;
  created_by: string;
  created_time: Generated<Date>;
}

/** Platform: sign-ins started with an outside identity provider, used once before they expire (issue 25). */
export interface SignInFlowTable {
  state: string;
  engine_code: string;
  provider: string;
  nonce: string;
  code_verifier: string;
  return_to: string | null;
  created_time: Generated<Date>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** What the flow needs to finish (a mobile-binding ticket: the platform's person), as JSON. */
  payload: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
}

export interface TaskTipTimerTable {
  engine_code: string;
  tip_id: string;
  due_at: ColumnType<Date, Date | string, Date | string>;
}

/** Platform: when a timed or date-triggered automation is next looked at (issue 21). */
export interface AutomationScheduleTable {
  engine_code: string;
  automation_id: string;
  next_run_at: ColumnType<Date, Date | string, Date | string>;
  scanned_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface JobTable {
  id: string;
  engine_code: string;
  kind: string;
  payload: ColumnType<unknown, string | undefined, string>;
  state: Generated<string>;
  progress: Generated<number>;
  message: string | null;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  created_by: string | null;
  worker_id: string | null;
  lease_until: Date | null;
  attempts: Generated<number>;
  created_time: Timestamp;
  started_time: Date | null;
  finished_time: Date | null;
  /** Not claimed before this time (a retry's back-off, a scheduled run). */
  run_after: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The request that queued the job, for tracing its log lines (docs/decisions/0121). */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Engine schema: apps, groups and modules (domain.md §3). */
export interface FunctionNodeTable {
  code: string;
  object_id: string;
  parent_code: string | null;
  app_code: string;
  display_name: string;
  icon: Generated<string>;
  icon_color: Generated<string>;
  node_type: number;
  summary: Generated<string>;
  app_state: Generated<string>;
  source: Generated<string>;
  state: Generated<string>;
  sort_key: Generated<number>;
  url: string | null;
  copy_job_id: string | null;
  created_time: Timestamp;
  modified_time: Timestamp;
}

export interface NodePermissionTable {
  node_code: string;
  unit_id: string;
  permission: string;
  created_time: Timestamp;
}

export interface WorkbenchConfigTable {
  user_id: string;
  config: ColumnType<unknown, string, string>;
  modified_time: Timestamp;
}

export interface WorkbenchVisitTable {
  user_id: string;
  node_code: string;
  visit_count: Generated<number>;
  last_visit_time: Timestamp;
}

/** Engine schema: a form node's draft and published definitions (docs/decisions/0006). */
export interface FormSchemaTable {
  schema_code: string;
  draft: ColumnType<unknown, string, string>;
  draft_version: number;
  draft_saved_time: Timestamp;
  published: ColumnType<unknown, string | null | undefined, string | null>;
  published_version: number | null;
  published_time: Date | null;
  modified_by: string | null;
  created_time: Timestamp;
}

/** The physical tables of a published form: grid_key '' for the main table, the lower-cased grid code for a sub-table. */
export interface FormTableTable {
  table_name: string;
  schema_code: string;
  grid_key: string;
  created_time: Timestamp;
  /** Main table: the columns with a lowered twin (form-design/trigram-indexes.ts); '[]' for sub-tables. */
  folded_columns: ColumnType<string[], string | undefined, string>;
  /** The system id columns are uuid (decision 0128); false for a table made before it until the storage job converts it. */
  uuid_ids: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface FormCustomIndexTable {
  index_name: string;
  schema_code: string;
  fields: ColumnType<string[], string, string>;
  created_time: Timestamp;
}

export interface FormSeqNoTable {
  schema_code: string;
  control_code: string;
  period: string;
  value: ColumnType<number, number | undefined, number>;
  modified_time: Timestamp;
}

/** A change log row of a record (docs/decisions/0007). */
export interface FormDataLogTable {
  id: string;
  schema_code: string;
  object_id: string;
  user_id: string;
  time: Timestamp;
  changes: ColumnType<{ code: string; from: unknown; to: unknown }[], string, string>;
}

export interface PlatformDb {
  'platform.accounts': AccountTable;
  'platform.engines': EngineTable;
  'platform.memberships': MembershipTable;
  'platform.verify_codes': VerifyCodeTable;
  'platform.revoked_tokens': RevokedTokenTable;
  'platform.feature_switches': FeatureSwitchTable;
  'platform.error_logs': ErrorLogTable;
  'platform.settings': SettingTable;
  'platform.invitations': InvitationTable;
  'platform.invitation_links': InvitationLinkTable;
  'platform.sign_links': SignLinkTable;
  'platform.associated_orgs': AssociatedOrgTable;
  'platform.associated_org_members': AssociatedOrgMemberTable;
  'platform.jobs': JobTable;
  'platform.automation_schedules': AutomationScheduleTable;
  'platform.task_tip_timers': TaskTipTimerTable;
  'platform.short_links': ShortLinkTable;
  'platform.sign_in_flows': SignInFlowTable;
  'platform.access_counters': AccessCounterTable;
  'platform.workflow_timers': WorkflowTimerTable;
  'platform.rate_limit_counters': RateLimitCounterTable;
  'platform.app_packages': AppPackageTable;
}

/** platform.app_packages: a checked app package, its bytes in the file store (docs/decisions/0130). */
export interface AppPackageTable {
  id: string;
  engine_code: string | null;
  format_version: number;
  byte_size: ColumnType<string, number | string, number | string>;
  sha256: string;
  summary: ColumnType<unknown, string, string>;
  storage_key: string;
  created_by: string | null;
  created_time: Generated<Date>;
}

/** platform.rate_limit_counters: the request limits' counts shared by every process on PostgreSQL (docs/decisions/0121). */
export interface RateLimitCounterTable {
  key: string;
  count: Generated<number>;
  reset_time: ColumnType<Date, Date | string, Date | string>;
}

/** platform.workflow_timers: a work item's deadline or next scheduled urge, across engines (docs/decisions/0042). */
export interface WorkflowTimerTable {
  engine_code: string;
  work_item_id: string;
  kind: 'timeout' | 'urge';
  fire_at: ColumnType<Date, Date | string, Date | string>;
  attempts: Generated<number>;
}

/** Engine schema: uploaded files; pending until a record claims them (docs/decisions/0008). */
export interface FileTable {
  id: string;
  scene: string;
  name: string;
  size: ColumnType<number | string, number, number>;
  content_type: string;
  storage_key: string;
  created_by: string;
  created_time: Timestamp;
  schema_code: string | null;
  object_id: string | null;
  control_code: string | null;
}

/** Engine schema: a comment on a record, or a reply (docs/decisions/0009). */
export interface FormCommentTable {
  id: string;
  schema_code: string;
  object_id: string;
  /** The top-level comment a reply is shown under; null for a top-level comment. */
  root_id: string | null;
  /** The comment a reply answers; null for a top-level comment. */
  reply_to: string | null;
  text: string;
  files: ColumnType<{ id: string; name: string; size: number; contentType: string }[], string, string>;
  created_by: string;
  created_time: Timestamp;
}

/** Engine schema: a task tip (reminder) on a record (docs/decisions/0009). */
export interface FormTaskTipTable {
  id: string;
  schema_code: string;
  object_id: string;
  content: string;
  remind_time: ColumnType<Date, Date | string, Date | string>;
  receiver_ids: ColumnType<string[], string, string>;
  state: ColumnType<'pending' | 'cancelled' | 'done', 'pending' | 'cancelled' | 'done' | undefined, 'pending' | 'cancelled' | 'done'>;
  created_by: string;
  created_time: Timestamp;
  modified_time: Timestamp;
}

/** Engine schema: the workflow engine's tables (docs/decisions/0014). */
export interface WfTemplateDraftTable {
  schema_code: string;
  definition: ColumnType<unknown, string, string>;
  saved_by: string;
  saved_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface WfTemplateTable {
  schema_code: string;
  version: number;
  definition: ColumnType<unknown, string, string>;
  published_by: string;
  published_time: Timestamp;
}

export interface WfInstanceTable {
  id: string;
  schema_code: string;
  object_id: string;
  template_version: number;
  originator: string;
  name: Generated<string>;
  state: string;
  approval: Generated<number>;
  parent_instance_id: string | null;
  parent_token_id: string | null;
  next_seq: Generated<number>;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface WfTokenTable {
  id: string;
  instance_id: string;
  seq: number;
  activity_code: string;
  state: string;
  approval: Generated<number>;
  participants: ColumnType<string[], string | undefined, string>;
  item_count: Generated<number>;
  agree_count: Generated<number>;
  disagree_count: Generated<number>;
  retrievable: Generated<boolean>;
  pre_tokens: ColumnType<string[], string | undefined, string>;
  action_event: string | null;
  skipped: Generated<boolean>;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface WfWorkItemTable {
  id: string;
  instance_id: string;
  token_id: string;
  activity_code: string;
  item_type: string;
  kind: Generated<string>;
  participant: string;
  finisher: string | null;
  delegant: string | null;
  source_item_id: string | null;
  state: string;
  approval: Generated<number>;
  action_event: string | null;
  urged: Generated<boolean>;
  sort: Generated<number>;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The deadline of an item on a node with a time limit (docs/decisions/0042). */
  due_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface WfCommentTable {
  id: string;
  instance_id: string;
  token_id: string | null;
  work_item_id: string | null;
  activity_code: string | null;
  user_id: string;
  action: string;
  text: Generated<string>;
  approval: Generated<number>;
  signature: string | null;
  attachment_ids: ColumnType<string[], string | undefined, string>;
  receivers: ColumnType<string[], string | undefined, string>;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: reminders to one receiver each (docs/decisions/0019). */
export interface RemindTaskTable {
  id: string;
  receiver: string;
  kind: string;
  content: Generated<string>;
  sender: string | null;
  instance_id: string | null;
  work_item_id: string | null;
  schema_code: string | null;
  object_id: string | null;
  task_state: Generated<string>;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  read_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Engine schema: a form's business rules, draft and published (docs/decisions/0015). */
export interface FormBusinessRulesTable {
  schema_code: string;
  draft: ColumnType<unknown, string | undefined, string>;
  published: ColumnType<unknown, string | undefined, string>;
  saved_by: string | null;
  saved_time: ColumnType<Date, Date | string | undefined, Date | string>;
  published_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Engine schema: what a published form's rollups read and its rules write, by form (docs/decisions/0015). */
export interface FormDependencyTable {
  schema_code: string;
  kind: string;
  item: string;
  depends_on: string;
}

/** Engine schema: open API secrets, stored hashed (docs/decisions/0021). */
export interface EngineSecretTable {
  id: string;
  name: string;
  secret_hash: string;
  masked: string;
  created_by: string;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  last_used_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Engine schema: a designed list view of a form (docs/decisions/0017). */
export interface ListViewTable {
  schema_code: string;
  code: string;
  sort_key: number;
  setting: ColumnType<unknown, string, string>;
  modified_by: string;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: a user's personal view of a form (docs/decisions/0017). */
export interface PersonalViewTable {
  id: string;
  user_id: string;
  schema_code: string;
  view_page_id: string;
  title: string;
  scope_type: number;
  setting_type: number;
  config: ColumnType<unknown, string, string>;
  visible: ColumnType<boolean, boolean | undefined, boolean>;
  fields: ColumnType<string[], string | undefined, string>;
  sort_key: number;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface EngineDb {
  org_units: OrgUnitTable;
  org_users: OrgUserTable;
  org_user_departments: OrgUserDepartmentTable;
  org_role_members: OrgRoleMemberTable;
  org_user_posts: OrgUserPostTable;
  function_nodes: FunctionNodeTable;
  node_permissions: NodePermissionTable;
  workbench_configs: WorkbenchConfigTable;
  workbench_visits: WorkbenchVisitTable;
  form_schemas: FormSchemaTable;
  form_tables: FormTableTable;
  form_custom_indexes: FormCustomIndexTable;
  form_seq_no: FormSeqNoTable;
  form_data_logs: FormDataLogTable;
  files: FileTable;
  form_comments: FormCommentTable;
  form_task_tips: FormTaskTipTable;
  wf_template_drafts: WfTemplateDraftTable;
  wf_templates: WfTemplateTable;
  wf_instances: WfInstanceTable;
  wf_tokens: WfTokenTable;
  wf_work_items: WfWorkItemTable;
  wf_comments: WfCommentTable;
  remind_tasks: RemindTaskTable;
  list_views: ListViewTable;
  personal_views: PersonalViewTable;
  engine_secrets: EngineSecretTable;
  form_business_rules: FormBusinessRulesTable;
  form_dependencies: FormDependencyTable;
  data_port_tasks: DataPortTaskTable;
  data_import_rows: DataImportRowTable;
  data_import_objects: DataImportObjectTable;
  form_permission_groups: FormPermissionGroupTable;
  internal_messages: InternalMessageTable;
  notification_deliveries: NotificationDeliveryTable;
  notification_preferences: NotificationPreferenceTable;
  notification_channels: NotificationChannelTable;
  notification_robots: NotificationRobotTable;
  sign_in_providers: SignInProviderTable;
  org_user_identities: OrgUserIdentityTable;
  org_unit_identities: OrgUnitIdentityTable;
  dingtalk_shortcuts: DingtalkShortcutTable;
  directory_events: DirectoryEventTable;
  automations: AutomationTable;
  automation_runs: AutomationRunTable;
  form_public_links: FormPublicLinkTable;
  record_share_links: RecordShareLinkTable;
  form_open_queries: FormOpenQueryTable;
  print_templates: PrintTemplateTable;
  print_tasks: PrintTaskTable;
  print_excel_templates: PrintExcelTemplateTable;
  boards: BoardTable;
  gantt_tasks: GanttTaskTable;
  gantt_links: GanttLinkTable;
  oplog: OplogTable;
  oplog_head: OplogHeadTable;
  custom_codes: CustomCodeTable;
  script_limits: ScriptLimitsTable;
  custom_code_versions: CustomCodeVersionTable;
  biz_logs: BizLogTable;
  connections: ConnectionTable;
  connectors: ConnectorTable;
  connector_calls: ConnectorCallTable;
  plugin_instances: PluginInstanceTable;
  attendance_punches: AttendancePunchTable;
  payment_orders: PaymentOrderTable;
  payment_refunds: PaymentRefundTable;
  esign_flows: ESignFlowTable;
  esign_signers: ESignSignerTable;
  esign_events: ESignEventTable;
  face_photos: FacePhotoTable;
  face_checks: FaceCheckTable;
  connector_deliveries: ConnectorDeliveryTable;
  data_sources: DataSourceTable;
  ai_settings: AiSettingsTable;
  ai_usage: AiUsageTable;
  recognition_templates: RecognitionTemplateTable;
  app_sample_records: AppSampleRecordTable;
}

/** Engine schema: a sample record an app package's install wrote (docs/decisions/0130). */
export interface AppSampleRecordTable {
  app_code: string;
  schema_code: string;
  object_id: string;
  created_time: Generated<Date>;
}

/** Engine schema: the current source of a form's or an app's custom code, one row per part (docs/decisions/0118). */
/** The engine's limits of a script run (docs/decisions/0118); one row at most. */
export interface ScriptLimitsTable {
  id: Generated<number>;
  cpu_ms: number;
  memory_mb: number;
  updated_by: string | null;
  updated_at: ColumnType<Date, string | undefined, string>;
}

export interface CustomCodeTable {
  app_code: string;
  /** Null for the app's own part (app-api). */
  schema_code: string | null;
  part: string;
  language: string;
  source: string;
  /** The browser script compiled to JavaScript when saved (form-browser only). */
  compiled: string | null;
  version: number;
  updated_by: string | null;
  updated_at: ColumnType<Date, string | undefined, string>;
}

/** Engine schema: every save of a part's source (docs/decisions/0118). */
export interface CustomCodeVersionTable {
  id: Generated<string>;
  app_code: string;
  schema_code: string | null;
  part: string;
  version: number;
  language: string;
  source: string;
  author: string | null;
  created_at: ColumnType<Date, string | undefined, never>;
}

/** Engine schema: the operation log, one row per administrator's change, chained by hash (docs/decisions/0113). */
export interface OplogTable {
  seq: ColumnType<string | number, number, never>;
  time: ColumnType<Date, string, never>;
  user_id: string | null;
  user_name: string | null;
  kind: string;
  action: string;
  object_id: string | null;
  object_name: string | null;
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  request_id: string | null;
  ip: string | null;
  prev_hash: string;
  hash: string;
}

/** Engine schema: the operation log's last entry and the anchor left by the retention sweep (one row, id 1). */
export interface OplogHeadTable {
  id: number;
  last_seq: ColumnType<string | number, number, number>;
  last_hash: string;
  anchor_seq: ColumnType<string | number, number, number>;
  anchor_hash: string;
}

/** Engine schema: a record's place on Gantt charts of its form — its kind and its order among siblings (docs/decisions/0054). */
export interface GanttTaskTable {
  schema_code: string;
  object_id: string;
  task_type: Generated<string>;
  sort_order: number | null;
}

/** Engine schema: a finish-to-start link between two records of a form (docs/decisions/0054). */
export interface GanttLinkTable {
  schema_code: string;
  predecessor_id: string;
  successor_id: string;
  created_by: string;
  created_time: Generated<Timestamp>;
}

/** Engine schema: a form's print template (issue 24; docs/decisions/0050). */
export interface PrintTemplateTable {
  id: string;
  schema_code: string;
  name: string;
  is_default: Generated<boolean>;
  layout: ColumnType<unknown, string, string>;
  version: Generated<number>;
  created_by: string;
  created_time: Timestamp;
  modified_time: Timestamp;
}

/** Engine schema: an Excel print template (issue 24): a workbook with placeholders, kept as bytes. */
export interface PrintExcelTemplateTable {
  id: string;
  schema_code: string;
  name: string;
  workbook: Uint8Array;
  created_by: string;
  created_time: Timestamp;
}

/** Engine schema: a print job's subject (its state is the platform job's, same id) and its PDF while kept. */
export interface PrintTaskTable {
  id: string;
  schema_code: string;
  template_id: string | null;
  created_by: string;
  created_time: Timestamp;
  selection: ColumnType<unknown, string, string>;
  total: number | null;
  pages: number | null;
  file_id: string | null;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Engine schema: a form's open-query page (issue 19, OpenQuery). */
export interface FormOpenQueryTable {
  schema_code: string;
  token: string;
  enabled: Generated<boolean>;
  access: string;
  password_hash: string | null;
  query_fields: ColumnType<string[], string, string>;
  result_fields: ColumnType<string[], string, string>;
  mobile_field: string | null;
  owner_id: string;
  created_by: string;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: a link that shows one record read-only (issue 19, ExternalShare). */
export interface RecordShareLinkTable {
  id: string;
  token: string;
  schema_code: string;
  object_id: string;
  password_hash: string | null;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_by: string;
  created_time: Generated<Date>;
  revoked_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Engine schema: the board of a report or dashboard node (issue 22; docs/decisions/0044). */
export interface BoardTable {
  node_code: string;
  definition: ColumnType<unknown, string, string>;
  modified_by: string;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: a form's public fill-in link (issue 19, ExternalForm). */
export interface FormPublicLinkTable {
  schema_code: string;
  token: string;
  enabled: Generated<boolean>;
  password_hash: string | null;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  max_submissions: number | null;
  submissions: Generated<number>;
  owner_id: string;
  created_by: string;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: an automation (issue 21; docs/decisions/0041); `definition` is its model. */
export interface AutomationTable {
  id: string;
  schema_code: string;
  name: string;
  enabled: Generated<boolean>;
  trigger_type: string;
  definition: ColumnType<unknown, string, string>;
  run_as: Generated<string>;
  owner: string;
  webhook_token: string | null;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: one event of one automation and how its run went. */
export interface AutomationRunTable {
  id: string;
  automation_id: string;
  schema_code: string;
  trigger_type: string;
  object_id: string | null;
  event_key: string;
  state: Generated<string>;
  attempts: Generated<number>;
  chain: ColumnType<string[], string | undefined, string>;
  inputs: ColumnType<unknown, string | undefined, string>;
  steps: ColumnType<unknown, string | undefined, string>;
  error: string | null;
  duration_ms: number | null;
  created_by: string | null;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Engine schema: a message of the message center (issue 20; docs/decisions/0038). */
export interface InternalMessageTable {
  id: string;
  seq: Generated<number>;
  receiver: string;
  category: string;
  title: string;
  content: Generated<string>;
  sender: string | null;
  schema_code: string | null;
  object_id: string | null;
  work_item_id: string | null;
  instance_id: string | null;
  state: Generated<string>;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  read_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Engine schema: one message over one outside channel, with its attempts (the delivery log). */
export interface NotificationDeliveryTable {
  id: string;
  message_id: string;
  channel: string;
  state: Generated<string>;
  attempts: Generated<number>;
  detail: string | null;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Engine schema: which outside channels carry a category, for a user or (owner '*') the engine's default. */
export interface NotificationPreferenceTable {
  owner: string;
  category: string;
  channels: ColumnType<string[], string, string>;
}

/** Engine schema: an outside channel's settings (issue 20); `secrets` is AES-256-GCM ciphertext, never sent out. */
export interface NotificationChannelTable {
  /** chatApp: the work notifications' platforms (modules/chat-apps). */
  kind: 'email' | 'sms' | 'chatApp';
  enabled: boolean;
  settings: ColumnType<Record<string, unknown>, string, string>;
  secrets: string | null;
  modified_by: string;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: a chat-platform robot (issue 20); its webhook address and signing secret are in `secrets`. */
export interface NotificationRobotTable {
  id: string;
  name: string;
  platform: 'dingtalk' | 'wecom' | 'feishu';
  enabled: boolean;
  secrets: string;
  masked_url: string;
  has_secret: boolean;
  created_by: string;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: a form's permission group (docs/decisions/0037). */
export interface FormPermissionGroupTable {
  id: string;
  schema_code: string;
  name: string;
  members: ColumnType<{ users: string[]; departments: string[]; roles: string[] }, string, string>;
  actions: ColumnType<string[], string, string>;
  view_scope: string;
  edit_scope: string;
  field_rights: ColumnType<Record<string, string>, string, string>;
  sort_key: number;
  created_time: ColumnType<Date, Date | string | undefined, Date | string>;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: Excel import and export tasks; the id is the platform job's (docs/decisions/0020). */
export interface DataPortTaskTable {
  id: string;
  type: string;
  schema_code: string;
  created_by: string;
  created_time: Timestamp;
  file_id: string | null;
  file_name: string | null;
  options: ColumnType<unknown, string | undefined, string>;
  total: Generated<number>;
  inserted: Generated<number>;
  updated: Generated<number>;
  rejected: Generated<number>;
  result_file_id: string | null;
  report_file_id: string | null;
  /** The roll back's platform job (docs/decisions/0031). */
  rollback_job_id: string | null;
  rollback_by: string | null;
}

/** Engine schema: the file rows an import committed (so a retry skips them). */
export interface DataImportRowTable {
  task_id: string;
  row_no: number;
  object_id: string;
  action: string;
}

/** Engine schema: a record an import created or updated, its before-image and after-fingerprint (docs/decisions/0031). */
export interface DataImportObjectTable {
  task_id: string;
  object_id: string;
  row_no: number;
  action: string;
  before_main: ColumnType<unknown, string | null | undefined, string | null>;
  before_children: ColumnType<unknown, string | null | undefined, string | null>;
  after_hash: string;
  rollback: string | null;
  rollback_note: string | null;
}

/** A function node as the function-node reads return it (function-node.repo.ts). */
export type NodeRow = Pick<
  FunctionNodeTable,
  'code' | 'object_id' | 'parent_code' | 'app_code' | 'display_name' | 'url' | 'node_type'
> & { icon: string; icon_color: string; summary: string; app_state: string; source: string; state: string; sort_key: number };

/** A platform.engines row as read (created_time is set by the database). */
export type EngineRow = EngineTable & { created_time: Date };

export type Db = Kysely<PlatformDb>;

/** Engine: an outside sign-in provider's settings; secrets only as ciphertext (issue 25). */
/** A chat platform's change event awaiting (or applied by) an incremental directory sync (decision 0077). */
export interface DirectoryEventTable {
  id: Generated<string>;
  provider: string;
  event_type: string;
  subject_kind: 'user' | 'department';
  /** The platform's ids of the changed people or departments. */
  subjects: ColumnType<string[], string, string>;
  received_time: Generated<Date>;
  applied_time: Date | null;
}

export interface DingtalkShortcutTable {
  id: string;
  name: string;
  node_code: string;
  created_by: string;
  created_time: Timestamp;
  modified_time: Timestamp;
}

export interface SignInProviderTable {
  provider: string;
  enabled: boolean;
  settings: ColumnType<Record<string, unknown>, string, string>;
  secrets: string | null;
  modified_by: string;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine: a person's identity at an outside provider, bound to one user (issue 25). */
export interface OrgUserIdentityTable {
  provider: string;
  subject: string;
  user_id: string;
  created_time: Generated<Date>;
}

/** Engine: a platform's department, bound to one department of the engine by directory sync (issue 25). */
export interface OrgUnitIdentityTable {
  provider: string;
  subject: string;
  unit_id: string;
  created_time: Generated<Date>;
}

/** Engine schema: the business log, a summary row per script run (duration_ms set) and a row per logged line (docs/decisions/0118). */
export interface BizLogTable {
  id: ColumnType<string | number, never, never>;
  at: ColumnType<Date, Date | string | undefined, never>;
  app_code: string;
  schema_code: string | null;
  part: 'form-server' | 'app-api' | 'form-browser';
  handler: string;
  level: 'info' | 'warn' | 'error';
  message: string;
  line: number | null;
  duration_ms: number | null;
  request_id: string | null;
  user_id: string | null;
}

/** Engine schema: a connection config to an outside system (docs/decisions/0120); secrets sealed. */
export interface ConnectionTable {
  code: string;
  name: string;
  kind: Generated<'http'>;
  base_url: string;
  auth_kind: 'none' | 'basic' | 'bearer' | 'apiKey' | 'oauth2' | 'hmac';
  auth: ColumnType<Record<string, string>, string | undefined, string>;
  secrets: string | null;
  health_path: Generated<string>;
  status: Generated<'disabled' | 'normal' | 'exception'>;
  failure_count: Generated<number>;
  last_error: string | null;
  last_checked_time: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_by: string | null;
  created_time: Generated<Date>;
  modified_time: ColumnType<Date, Date | undefined, Date>;
}

/** Engine schema: an HTTP action over a connection, its parameters and the outputs read from the answer. */
export interface ConnectorTable {
  code: string;
  name: string;
  connection_code: string;
  method: string;
  path: Generated<string>;
  params: ColumnType<{ name: string; in: 'query' | 'body' | 'header'; value: string }[], string | undefined, string>;
  outputs: ColumnType<{ name: string; path: string; itemFields?: Record<string, string> }[], string | undefined, string>;
  created_time: Generated<Date>;
  modified_time: ColumnType<Date, Date | undefined, Date>;
}

/** Engine schema: one row per call that left the platform through a connection (kept 30 days). */
export interface ConnectorCallTable {
  id: ColumnType<string | number, never, never>;
  at: ColumnType<Date, Date | string | undefined, never>;
  connection_code: string;
  connector_code: string | null;
  source: 'health' | 'console' | 'button' | 'script' | 'automation';
  method: string;
  url: string;
  http_status: number | null;
  ok: boolean;
  duration_ms: number;
  error: string | null;
}

/** Engine schema: a plugin installed (or once installed) from a template, or authored by the engine (docs/decisions/0123). */
export interface PluginInstanceTable {
  code: string;
  template_code: string;
  name: string;
  status: ColumnType<'notInstalled' | 'installing' | 'installed', 'notInstalled' | 'installing' | 'installed' | undefined>;
  settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  secrets: string | null;
  publication: 'prePublish' | 'underReview' | 'published' | null;
  definition: ColumnType<Record<string, unknown>, string | undefined, string>;
  last_error: string | null;
  installed_by: string | null;
  installed_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_time: ColumnType<Date, Date | string | undefined, never>;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: the engine's AI provider and token credit, one row (docs/decisions/0124). */
export interface AiSettingsTable {
  id: number;
  base_url: string;
  api_key: string | null;
  chat_model: string;
  vision_model: ColumnType<string, string | undefined, string>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  quota_tokens: ColumnType<string | null, number | null | undefined, number | null>;
  used_tokens: ColumnType<string, number | undefined, number>;
  user_calls_per_minute: ColumnType<number, number | undefined, number>;
  updated_by: string | null;
  updated_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: one AI call (docs/decisions/0124). */
export interface AiUsageTable {
  id: ColumnType<string | number, never, never>;
  at: ColumnType<Date, Date | string | undefined, never>;
  user_id: string;
  scene: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  duration_ms: number;
  ok: boolean;
  error: string | null;
}

/** Engine schema: an inbound connector trigger's delivery, once per automation and delivery id (docs/decisions/0123). */
export interface ConnectorDeliveryTable {
  automation_id: string;
  delivery_id: string;
  run_id: string | null;
  created_time: ColumnType<Date, Date | string | undefined, never>;
}

/** Engine schema: a data-source node's (290) settings, one JSON document checked by the shared model on save. */
export interface DataSourceTable {
  node_code: string;
  definition: ColumnType<unknown, string, string>;
  modified_by: string;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: a person's reference photo for face checks, a file of the files module (docs/decisions/0123 "Face check"). */
export interface FacePhotoTable {
  user_id: string;
  file_id: string;
  uploaded_by: string;
  uploaded_time: Timestamp;
}

/** Engine schema: one comparison for a form's face-recognition control; `object_id` names the record its value went to. */
export interface FaceCheckTable {
  id: string;
  schema_code: string;
  control_code: string;
  user_id: string;
  matched: boolean;
  score: ColumnType<string | number, number, number>;
  threshold: ColumnType<string | number, number, number>;
  photo_file_id: string;
  provider_request_id: string;
  checked_by: string;
  checked_time: Timestamp;
  object_id: string | null;
}

/** Engine schema: an e-signature flow of a record's e-sign control (docs/decisions/0123, e-signature). */
export interface ESignFlowTable {
  id: string;
  /** The plugin template that runs it: esign-tsign or esign-fdd. */
  template_code: string;
  provider_flow_id: string | null;
  schema_code: string;
  object_id: string;
  control_code: string;
  state: 'PreCommit' | 'Draft' | 'Running' | 'Finish' | 'Revoke' | 'Abort' | 'Expired' | 'Delete' | 'Refuse';
  initiator: string;
  document_file_id: string | null;
  signed_file_id: string | null;
  created_time: ColumnType<Date, Date | string | undefined, never>;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Engine schema: one signer of an e-signature flow, in order. */
export interface ESignSignerTable {
  flow_id: string;
  sign_order: number;
  user_id: string;
  name: string;
  mobile: string;
  for_organization: ColumnType<boolean, boolean | undefined, boolean>;
  state: 'Waiting' | 'Signing' | 'Complete' | 'WaitForApproval' | 'Refuse';
  sign_url: string | null;
  started_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  signed_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  reason: string | null;
}

/** Engine schema: the trail of an e-signature flow; the event key makes a repeated callback a no-op. */
export interface ESignEventTable {
  id: ColumnType<string, never, never>;
  flow_id: string;
  event_key: string;
  kind: string;
  sign_order: number | null;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
  time: ColumnType<Date, Date | string | undefined, never>;
}

/** Engine schema: a payment order of a record's payment control (amounts in fen; docs/decisions/0123, payment). */
export interface PaymentOrderTable {
  out_trade_no: string;
  plugin_code: string;
  schema_code: string;
  object_id: string;
  control_code: string;
  subject: string;
  amount_fen: number;
  state: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED' | 'TRADE_FINISHED';
  qr_code: string | null;
  trade_no: string | null;
  paid_fen: number | null;
  paid_time: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  refunded_fen: ColumnType<number, number | undefined, number>;
  created_by: string;
  created_time: ColumnType<Date, Date | string | undefined, never>;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Engine schema: a refund of a payment order; out_request_no is what the provider knows it by. */
export interface PaymentRefundTable {
  out_request_no: string;
  out_trade_no: string;
  amount_fen: number;
  reason: ColumnType<string, string | undefined, string>;
  state: 'REFUND_SUCCESS' | 'REFUND_FAILED';
  created_by: string;
  created_time: ColumnType<Date, Date | string | undefined, never>;
}

/** A punch already written by the attendance step (docs/decisions/0123 "Chat apps"): the platform's key → the record. */
export interface AttendancePunchTable {
  platform: string;
  punch_key: string;
  schema_code: string;
  object_id: string;
  created_time: Generated<Date>;
}

/** Engine schema: an engine's own recognition template (docs/decisions/0125). */
export interface RecognitionTemplateTable {
  template_code: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  mode: ColumnType<'rules' | 'model', 'rules' | 'model' | undefined, 'rules' | 'model'>;
  fields: ColumnType<unknown, string, string>;
  created_by: string;
  created_time: ColumnType<Date, Date | string | undefined, never>;
  modified_by: string;
  modified_time: ColumnType<Date, Date | string | undefined, Date | string>;
}
