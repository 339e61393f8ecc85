import { X509Certificate } from 'node:crypto';
import { parameterError } from '../../lib/app-error.ts';

// SAML settings that the settings view needs without the protocol itself (docs/decisions/0087): this engine's
// addresses and the identity provider's certificates.

/** The assertion consumer and metadata addresses of one engine, on the origin of the saved callback address. */
export function samlAddresses(engineCode: string, siteOrCallbackUrl: string): { acsUrl: string; metadataUrl: string } {
  const base = `${new URL(siteOrCallbackUrl).origin}/v1/login/sso/saml/${engineCode}`;
  return { acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata` };
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The certificates of a PEM text (one or several, as during a key rollover), each one read as X.509; a text without
 * a readable certificate answers null.
 */
export function certificatesOf(pem: string): string[] | null {
  const blocks = pem.match(PEM_BLOCK);
  if (!blocks) return null;
  try {
    return blocks.map((block) => new X509Certificate(block).toString().trim());
  } catch {
    return null;
  }
}

/** Refuses (777, on the certificate field) a text that is not one or more X.509 certificates in PEM. */
export function assertCertificates(pem: string): void {
  if (!certificatesOf(pem)) throw parameterError([{ path: 'saml.idpCert', message: '身份提供方证书应为 PEM 格式的 X.509 证书' }]);
}
