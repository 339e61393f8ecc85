import { textOf, xmlFields } from './push-xml.ts';
import type { ChangeCallbacks, ChatProviderSettings, DirectoryChange } from './chat-provider.ts';
import { dingDecrypt as unseal, dingSignature as sealSignature, sameText } from './dingtalk-events.ts';

// WeCom's callback service for contact changes (docs/decisions/0089). The sealing is the one DingTalk's pushes use
// (dingtalk-events.ts): msg_signature is the SHA-1 of the token, timestamp, nonce and the encrypted text, sorted and
// joined; the text is AES-256-CBC with the 43-character EncodingAESKey (IV its first 16 bytes, PKCS#7 to 32 bytes)
// and opens to 16 random bytes, the message length (4 bytes, big-endian), the message and the receiver id — the
// CorpID, which must be this organisation's. Saving the URL in WeCom's console sends a GET with an encrypted echostr
// to be answered in plain text; pushes are POSTs of <xml><ToUserName/><AgentID/><Encrypt/></xml> whose message is
// itself XML (Event change_contact, ChangeType create_user…delete_party), answered with the plain word "success".

const USER_CHANGES = new Set(['create_user', 'update_user', 'delete_user']);
const PARTY_CHANGES = new Set(['create_party', 'update_party', 'delete_party']);

/** What a change_contact event names; a changed userid (NewUserID) names the old and the new one. */
export function wxworkChange(event: Record<string, unknown>): DirectoryChange | null {
  const type = textOf(event.ChangeType);
  if (textOf(event.Event) !== 'change_contact') return null;
  if (USER_CHANGES.has(type)) return { type, kind: 'user', subjects: [textOf(event.UserID), textOf(event.NewUserID)].filter(Boolean) };
  if (PARTY_CHANGES.has(type)) return { type, kind: 'department', subjects: [textOf(event.Id)].filter(Boolean) };
  return null;
}

/** The message of a sealed text when the signature holds and the receiver is this organisation. */
function openSealed(settings: ChatProviderSettings, token: string, aesKey: string, query: Record<string, string | undefined>, sealed: string): string | null {
  const { msg_signature: signature = '', timestamp = '', nonce = '' } = query;
  if (!sealed || !signature || !timestamp || !nonce) return null;
  if (!sameText(sealSignature(token, timestamp, nonce, sealed), signature)) return null;
  const opened = unseal(aesKey, sealed);
  const corpIds = [settings.appKey, settings.corpId].filter(Boolean);
  return opened && corpIds.includes(opened.ownerKey) ? opened.message : null;
}

export const wxworkCallbacks: ChangeCallbacks = {
  open(settings, keys, { method, query, body }) {
    if (method === 'GET') {
      const echo = openSealed(settings, keys.token, keys.aesKey, query, query.echostr ?? '');
      return echo === null ? null : { type: 'verify_url', change: null, answer: echo };
    }
    const outer = xmlFields(body);
    const message = outer && openSealed(settings, keys.token, keys.aesKey, query, textOf(outer.Encrypt));
    const event = message ? xmlFields(message) : null;
    if (!event) return null;
    return { type: textOf(event.ChangeType) || textOf(event.Event) || textOf(event.MsgType), change: wxworkChange(event) };
  },

  reply: () => 'success',
};
