// zh-CN of work notifications in the chat apps and the attendance step (issue 44; docs/decisions/0123). Joined into zh-CN-workbench.ts under `chatApps`.
export const zhCNChatApps = {
  title: '钉钉、企业微信、飞书工作通知与考勤',
  tab: '工作通知',
  platforms: { dingtalk: '钉钉', wxwork: '企业微信', feishu: '飞书' },
  channel: {
    intro: '启用后，待办、催办、流程结果和消息会以工作通知卡片发给本人（通过组织自己的应用），点击卡片在客户端内免登打开记录。成员在“消息设置”中按类别选择是否接收；没有平台账号的成员改由其他渠道送达。',
    enabled: '启用工作通知',
    use: '使用',
    platform: '平台',
    app: '应用状态',
    ready: '可发送',
    notConfigured: '应用未配置',
    disabled: '应用未启用',
    noAgentId: '缺少 AgentId',
    people: '已绑定成员',
    peopleCount: '{{count}} 人',
    appsHint: '平台应用即登录设置中的第三方应用（AppKey、AppSecret、AgentId），成员通过扫码登录或通讯录同步绑定。',
    toSignIn: '前往登录设置',
    saveFailed: '保存失败',
    testHint: '发送测试：通过所选平台的应用给你本人发一条工作通知（你须已通过该平台登录或通讯录同步绑定账号）。',
    testPlatform: '选择平台',
  },
};
