import type { contracts } from '@tritium/shared';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';

// The SMS, e-mail and robot plugins are the notification channels (docs/decisions/0123): their settings stay on the
// notification channels page. Installing one turns its channel on, uninstalling turns it off; an engine that set its
// channels up before plugins existed sees them installed while the channel is on.

const CHANNEL_TEMPLATES = ['email', 'sms', 'robot'] as const;
type ChannelTemplate = (typeof CHANNEL_TEMPLATES)[number];
const isChannel = (code: string): code is ChannelTemplate => (CHANNEL_TEMPLATES as readonly string[]).includes(code);

/** The status each channel template has by its channel alone (used when it has no plugin row yet). */
export async function channelStatus(edb: EngineExecutor): Promise<Partial<Record<string, contracts.PluginInstallStatus>>> {
  const channels = await edb.selectFrom('notification_channels').select(['kind', 'enabled']).execute();
  const robots = await edb.selectFrom('notification_robots').select('id').where('enabled', '=', true).limit(1).execute();
  const on = (kind: string) => channels.some((c) => c.kind === kind && c.enabled);
  return { email: on('email') ? 'installed' : 'notInstalled', sms: on('sms') ? 'installed' : 'notInstalled', robot: robots.length ? 'installed' : 'notInstalled' };
}

/**
 * Turns the template's channel on or off. Robots turned off by an uninstall are remembered on the plugin's row and
 * only those come back on install: a robot the administrator had switched off stays off.
 */
export async function switchChannels(edb: EngineExecutor, templateCode: string, on: boolean): Promise<void> {
  if (!isChannel(templateCode)) return;
  if (templateCode !== 'robot') {
    await edb.updateTable('notification_channels').set({ enabled: on }).where('kind', '=', templateCode).execute();
    return;
  }
  const row = await edb.selectFrom('plugin_instances').select('definition').where('code', '=', 'robot').executeTakeFirst();
  if (on) {
    const ids = Array.isArray(row?.definition?.disabledRobots) ? (row.definition.disabledRobots as string[]) : [];
    if (ids.length) await edb.updateTable('notification_robots').set({ enabled: true }).where('id', 'in', ids).execute();
    await edb.updateTable('plugin_instances').set({ definition: JSON.stringify({}) }).where('code', '=', 'robot').execute();
    return;
  }
  const enabled = await edb.selectFrom('notification_robots').select('id').where('enabled', '=', true).execute();
  const ids = enabled.map((r) => r.id);
  if (ids.length) await edb.updateTable('notification_robots').set({ enabled: false }).where('id', 'in', ids).execute();
  await edb.updateTable('plugin_instances').set({ definition: JSON.stringify({ disabledRobots: ids }) }).where('code', '=', 'robot').execute();
}
