/**
 * The journal's schema, as forward-only migrations (never edit a shipped step; add one).
 *
 * - `sale`: one row per sale, its state column is the truth (docs/transactions.md).
 * - `sale_event`: append-only history of every transition (what the agent was about to do, and what came of it).
 * - `sealed_card`: the card data of a sale in progress, AES-256-GCM sealed, deleted when authorization completes.
 * - `outbox`: the store-and-forward queue; bodies sealed (they may carry card data), dropped once acknowledged.
 * - `counter`: durable counters (the merchantTransID sequence).
 */
import type { Migration } from './migrations'

/**
 * The sales recovery looks at after a restart: those not settled (SETTLED in src-shared/sale, which a
 * test holds this list to). Written out, because a shipped migration never changes; the recovery
 * query uses this same text so that SQLite can use the partial index built with it.
 */
export const OPEN_SALE_PREDICATE = "state NOT IN ('approved', 'declined', 'abandoned', 'reversed', 'cancelled', 'forwarded', 'captured')"

export const JOURNAL_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sales, their events, sealed card data, the store-and-forward queue, counters',
    up(db) {
      db.exec(`
        CREATE TABLE counter (
          name  TEXT PRIMARY KEY,
          value INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE sale (
          id               TEXT PRIMARY KEY,          -- merchantTransID
          state            TEXT NOT NULL,
          created_at       INTEGER NOT NULL,          -- ms since epoch
          updated_at       INTEGER NOT NULL,
          business_day     TEXT NOT NULL,             -- YYYY-MM-DD, terminal local time
          trans_time       TEXT NOT NULL,             -- merchantTransTime as sent
          amount_minor     INTEGER NOT NULL CHECK (amount_minor > 0),
          currency         TEXT NOT NULL,
          auto_capture     INTEGER NOT NULL,
          offline          INTEGER NOT NULL DEFAULT 0,
          chip             INTEGER NOT NULL DEFAULT 0,
          tip_minor        INTEGER NOT NULL DEFAULT 0,
          tip_state        TEXT NOT NULL DEFAULT 'none',
          reason           TEXT,
          attention_from   TEXT,
          auth_code        TEXT,
          svc_trans_id     TEXT,
          masked_pan       TEXT,
          brand            TEXT,
          read_method      TEXT,
          application_id   TEXT,
          application_label TEXT,
          card_fingerprint TEXT,                      -- keyed hash, never the PAN
          reference        TEXT UNIQUE,               -- the integrator's idempotency key
          request_hash     TEXT,
          options          TEXT                       -- optional payment fields (JSON, no card data)
        ) STRICT;
        CREATE INDEX sale_by_day ON sale (business_day);
        CREATE INDEX sale_by_fingerprint ON sale (card_fingerprint, created_at) WHERE card_fingerprint IS NOT NULL;
        CREATE INDEX sale_open ON sale (state) WHERE ${OPEN_SALE_PREDICATE};

        CREATE TABLE sale_event (
          seq        INTEGER PRIMARY KEY,
          sale_id    TEXT NOT NULL REFERENCES sale (id),
          at         INTEGER NOT NULL,
          type       TEXT NOT NULL,
          from_state TEXT,
          to_state   TEXT NOT NULL,
          detail     TEXT
        ) STRICT;
        CREATE INDEX sale_event_by_sale ON sale_event (sale_id, seq);

        CREATE TABLE sealed_card (
          sale_id    TEXT NOT NULL REFERENCES sale (id),
          purpose    TEXT NOT NULL,                   -- 'purchase' or 'void'
          envelope   BLOB NOT NULL,
          key_id     TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (sale_id, purpose)
        ) STRICT;

        CREATE TABLE outbox (
          seq             INTEGER PRIMARY KEY,
          sale_id         TEXT NOT NULL REFERENCES sale (id),
          operation       TEXT NOT NULL,              -- payment | reversal | tips | cancel | capture
          message_id      TEXT NOT NULL,              -- merchantTransID inside the body (or the sale's, for a reversal)
          priority        INTEGER NOT NULL,           -- 0 reversal, 1 anything else
          state           TEXT NOT NULL,              -- pending | inflight | done | attention | withdrawn
          body            BLOB,                       -- sealed request body; NULL once acknowledged or withdrawn
          key_id          TEXT,                       -- data key the body is sealed under
          amount_minor    INTEGER NOT NULL DEFAULT 0,
          currency        TEXT,
          attempts        INTEGER NOT NULL DEFAULT 0,
          next_attempt_at INTEGER NOT NULL,
          created_at      INTEGER NOT NULL,
          last_error      TEXT,
          done_at         INTEGER
        ) STRICT;
        -- the forwarder walks pending items in queue order and stops at its batch size
        CREATE INDEX outbox_queue ON outbox (priority, seq) WHERE state = 'pending';
        CREATE INDEX outbox_by_sale ON outbox (sale_id, state);
      `)
    },
  },
]
