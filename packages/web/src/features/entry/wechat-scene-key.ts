// The official account's scan (decision 0097): the start answers a key that only this browser tab keeps, per scene;
// the QR page sends it when it asks for the scene's state, so that a scene seen elsewhere (a shared link, another
// tab's address) cannot be used to sign in.

const PREFIX = 'tritium.wechat.scene.';

/** Keeps the key of the scene named in the start's address (this site's QR page), if the start gave one. */
export function keepWechatSceneKey(redirectUrl: string, key: string | undefined): void {
  if (!key) return;
  const scene = new URL(redirectUrl, window.location.origin).searchParams.get('scene');
  try {
    if (scene) sessionStorage.setItem(PREFIX + scene, key);
  } catch {
    // Storage refused (private mode): the QR page then says the scan is invalid, never signs in silently.
  }
}

export function wechatSceneKey(scene: string): string | null {
  try {
    return sessionStorage.getItem(PREFIX + scene);
  } catch {
    return null;
  }
}
