/**
 * `/admin/*` on the training host: switch faults at run time and read the host's view, for
 * trainers (curl) and tests. Not signed and not part of the gateway API; the server listens on
 * 127.0.0.1 only, so only this machine reaches it.
 *
 *   GET    /admin/health                 { ok, entries, payments, faults }
 *   GET    /admin/ledger                 { entries, payments }      (masked card numbers only)
 *   GET    /admin/faults                 { faults: [{ operation, fault, times? }] }
 *   POST   /admin/faults                 body { operation, fault: "delay=2000" | { kind, ms? }, times? }
 *   DELETE /admin/faults[?operation=op]  all faults, or those of one target
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { faultRuleFromJson, parseTarget, type FaultBook } from './faults'
import { readBody, sendJson } from './http-io'
import type { LedgerSnapshot } from './ledger'

export interface AdminContext {
  faults: FaultBook
  ledger: () => LedgerSnapshot
}

/** Admin bodies are tiny; refuse anything large. */
const ADMIN_BODY_LIMIT = 16 * 1024

export async function serveAdmin(req: IncomingMessage, res: ServerResponse, url: URL, ctx: AdminContext): Promise<void> {
  const route = `${req.method ?? 'GET'} ${url.pathname}`
  switch (route) {
    case 'GET /admin/health': {
      const ledger = ctx.ledger()
      return sendJson(res, 200, { ok: true, entries: ledger.entries.length, payments: ledger.payments.length, faults: ctx.faults.list() })
    }
    case 'GET /admin/ledger':
      return sendJson(res, 200, ctx.ledger())
    case 'GET /admin/faults':
      return sendJson(res, 200, { faults: ctx.faults.list() })
    case 'POST /admin/faults':
      return addFault(req, res, ctx)
    case 'DELETE /admin/faults': {
      const operation = url.searchParams.get('operation')
      try {
        ctx.faults.clear(operation === null ? undefined : parseTarget(operation))
      } catch (error) {
        return sendJson(res, 400, { error: (error as Error).message })
      }
      return sendJson(res, 200, { faults: ctx.faults.list() })
    }
    default:
      return sendJson(res, 404, { error: `no admin route ${route}` })
  }
}

async function addFault(req: IncomingMessage, res: ServerResponse, ctx: AdminContext): Promise<void> {
  const body = await readBody(req, ADMIN_BODY_LIMIT)
  if (body === undefined) return sendJson(res, 413, { error: 'body too large' }, { Connection: 'close' })
  try {
    const rule = faultRuleFromJson(JSON.parse(body.toString('utf8')))
    ctx.faults.set(rule.operation, rule.fault, rule.times)
  } catch (error) {
    return sendJson(res, 400, { error: (error as Error).message })
  }
  return sendJson(res, 200, { faults: ctx.faults.list() })
}
