/**
 * The cashier UI's Content-Security-Policy. Scripts, styles and images only from the app's own
 * /assets/ folder (no 'self' wildcard, no inline code), nothing else. In Electron the origin is the
 * custom protocol and the page never fetches (it talks over IPC); in browser mode it is the local
 * server, which the page calls for the API and server-sent events.
 */
export const ELECTRON_APP_ORIGIN = 'pos-agent://app'

export function contentSecurityPolicy(origin: string, apiCalls: boolean): string {
  const assets = `${origin}/assets/`
  return [
    "default-src 'none'",
    `script-src ${assets}`,
    `style-src ${assets}`,
    `img-src ${assets} data:`,
    `font-src ${assets}`,
    `connect-src ${apiCalls ? "'self'" : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')
}
