/**
 * A private certificate authority and a server certificate it issues, for a server the agent runs
 * itself: the training host, and the nexo endpoint a POS connects to.
 *
 * docs/gateway.md §2: the specification requires TLS 1.2+ with certificate validation by the client;
 * the agent never disables validation for the training host, it adds `<stateDir>/training-ca.pem` as
 * an extra CA. A POS trusts the nexo endpoint's CA file the same way. So each identity has its own
 * private CA (ECDSA P-256), made once, a server certificate for 127.0.0.1 and localhost plus the
 * addresses the identity names (SAN IP and DNS: clients match IP addresses only against IP SANs),
 * both reused on later starts so trust survives restarts. Only what is missing, about to expire or no
 * longer matching is made again; a new CA forces a new server certificate.
 *
 * Private keys are written with mode 0600 (the folder 0700); writes go to a temporary file first so
 * that a crash never leaves half a key.
 */
import type * as X509 from '@peculiar/x509'
import { X509Certificate, createPrivateKey, randomBytes, webcrypto } from 'node:crypto'
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SYSTEM_CLOCK } from '../../src-shared/clock'

/** Who the certificates are for: their files in the state folder, their names, and their addresses. */
export interface TlsIdentity {
  files: { caCert: string; caKey: string; cert: string; key: string }
  /** The organisation named in both certificates, e.g. "pos-agent training host". */
  organisation: string
  /** Addresses beyond 127.0.0.1 and localhost the server answers on (a LAN address, a host name). */
  extraIps?: readonly string[]
  extraNames?: readonly string[]
}

export const TRAINING_HOST_TLS: TlsIdentity = {
  files: { caCert: 'training-ca.pem', caKey: 'training-ca-key.pem', cert: 'training-server.pem', key: 'training-server-key.pem' },
  organisation: 'pos-agent training host',
}

/** The training host's file names (kept: an installed agent trusts `training-ca.pem` by that name). */
export const TLS_FILES = TRAINING_HOST_TLS.files

export interface TlsMaterial {
  caFile: string
  caPem: string
  certPem: string
  keyPem: string
  /** Whether this call made a new CA (the agent must then trust the new file). */
  createdCa: boolean
}

const DAY = 86_400_000
const CA_DAYS = 3650
const SERVER_DAYS = 825
/** Re-issue this long before expiry so a running demo never meets an expired certificate. */
const RENEW_BEFORE_DAYS = 30
const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' }
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' }
const crypto = webcrypto as unknown as Parameters<typeof X509.X509CertificateGenerator.create>[1]

/**
 * The certificate library, loaded only to make a certificate: a start that finds its certificates
 * checks them with node:crypto alone and skips the library's load time. Its dependency injection
 * needs the reflect-metadata polyfill loaded first.
 */
async function x509Library(): Promise<typeof X509> {
  await import('reflect-metadata')
  return import('@peculiar/x509')
}

export async function loadOrCreateTlsMaterial(
  stateDir: string,
  now: Date = new Date(SYSTEM_CLOCK.now()),
  identity: TlsIdentity = TRAINING_HOST_TLS,
): Promise<TlsMaterial> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 })
  const path = (name: keyof TlsIdentity['files']) => join(stateDir, identity.files[name])
  const [caPem, caKeyPem, certPem, keyPem] = await Promise.all([path('caCert'), path('caKey'), path('cert'), path('key')].map(readOptional))

  let ca = caPem && caKeyPem && usableCa(caPem, caKeyPem, now) ? { certPem: caPem, keyPem: caKeyPem } : undefined
  const createdCa = ca === undefined
  if (ca === undefined) {
    ca = await createCa(identity, now)
    await writeAtomic(path('caKey'), ca.keyPem, 0o600)
    await writeAtomic(path('caCert'), ca.certPem, 0o644)
  }
  let server = !createdCa && certPem && keyPem && usableServer(certPem, keyPem, ca.certPem, identity, now) ? { certPem, keyPem } : undefined
  if (server === undefined) {
    server = await createServerCertificate(ca, identity, now)
    await writeAtomic(path('key'), server.keyPem, 0o600)
    await writeAtomic(path('cert'), server.certPem, 0o644)
  }
  return { caFile: path('caCert'), caPem: ca.certPem, certPem: server.certPem, keyPem: server.keyPem, createdCa }
}

function usableCa(certPem: string, keyPem: string, now: Date): boolean {
  try {
    const cert = new X509Certificate(certPem)
    return cert.ca && cert.checkPrivateKey(createPrivateKey(keyPem)) && validLongEnough(cert, now)
  } catch {
    return false
  }
}

function usableServer(certPem: string, keyPem: string, caPem: string, identity: TlsIdentity, now: Date): boolean {
  try {
    const cert = new X509Certificate(certPem)
    const ca = new X509Certificate(caPem)
    return (
      cert.checkIssued(ca) &&
      cert.verify(ca.publicKey) &&
      cert.checkPrivateKey(createPrivateKey(keyPem)) &&
      ipsOf(identity).every((ip) => cert.checkIP(ip) !== undefined) &&
      namesOf(identity).every((name) => cert.checkHost(name) !== undefined) &&
      validLongEnough(cert, now)
    )
  } catch {
    return false
  }
}

function validLongEnough(cert: X509Certificate, now: Date): boolean {
  return new Date(cert.validFrom).getTime() <= now.getTime() && new Date(cert.validTo).getTime() > now.getTime() + RENEW_BEFORE_DAYS * DAY
}

interface Pair {
  certPem: string
  keyPem: string
}

const ipsOf = (identity: TlsIdentity): string[] => [...new Set(['127.0.0.1', ...(identity.extraIps ?? [])])]
const namesOf = (identity: TlsIdentity): string[] => [...new Set(['localhost', ...(identity.extraNames ?? [])])]

async function createCa(identity: TlsIdentity, now: Date): Promise<Pair> {
  const x509 = await x509Library()
  const keys = await generateKeys()
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: `CN=${identity.organisation} CA, O=${identity.organisation}`,
      notBefore: new Date(now.getTime() - DAY),
      notAfter: new Date(now.getTime() + CA_DAYS * DAY),
      keys,
      signingAlgorithm: SIGNING,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  )
  return { certPem: cert.toString('pem'), keyPem: await exportKey(x509, keys.privateKey) }
}

async function createServerCertificate(ca: Pair, identity: TlsIdentity, now: Date): Promise<Pair> {
  const x509 = await x509Library()
  const keys = await generateKeys()
  const caCert = new x509.X509Certificate(ca.certPem)
  const caKey = await webcrypto.subtle.importKey(
    'pkcs8',
    createPrivateKey(ca.keyPem).export({ type: 'pkcs8', format: 'der' }),
    EC_KEY,
    false,
    ['sign'],
  )
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: serialNumber(),
      subject: `CN=localhost, O=${identity.organisation}`,
      issuer: caCert.subject,
      notBefore: new Date(now.getTime() - DAY),
      notAfter: new Date(now.getTime() + SERVER_DAYS * DAY),
      publicKey: keys.publicKey,
      signingKey: caKey,
      signingAlgorithm: SIGNING,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([
          ...ipsOf(identity).map((value) => ({ type: 'ip' as const, value })),
          ...namesOf(identity).map((value) => ({ type: 'dns' as const, value })),
        ]),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
        await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey, false, crypto),
      ],
    },
    crypto,
  )
  return { certPem: cert.toString('pem'), keyPem: await exportKey(x509, keys.privateKey) }
}

async function generateKeys(): Promise<webcrypto.CryptoKeyPair> {
  return await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify'])
}

async function exportKey(x509: typeof X509, key: webcrypto.CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY')
}

/** 16 random bytes, first bit clear: a positive serial as RFC 5280 §4.1.2.2 requires. */
function serialNumber(): string {
  const bytes = randomBytes(16)
  bytes[0] = (bytes[0] ?? 0) & 0x7f
  return bytes.toString('hex')
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

async function writeAtomic(file: string, text: string, mode: number): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temporary, text, { mode })
  await chmod(temporary, mode)
  await rename(temporary, file)
}
