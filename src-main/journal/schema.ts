/**
 * The journal's schema, as forward-only migrations (never edit a shipped step; add one).
 *
 * - `sale`: one row per sale, its state column is the truth (docs/transactions.md).
 * - `sale_event`: append-only history of every transition (what the agent was about to do, and what came of it).
 * - `sealed_card`: the card data of a sale in progress, AES-256-GCM sealed, deleted when authorization completes.
 * - `outbox`: the store-and-forward queue; bodies sealed (they may carry card data), dropped once acknowledged.
 * - `counter`: durable counters (the merchantTransID sequence).
 * - `sale_key` (version 3): each sale's own key, wrapped by the data key, kept while anything of the
 *   sale is sealed under it and destroyed when its card data is purged (sale-keys.ts).
 * - `id_epoch` (version 3): the merchantTransID epochs this journal issued (transaction-ids.ts).
 * - `batch` (version 4): the closed batches, one row each, never changed; a sale's `batch` column
 *   names the closed batch it belongs to (NULL: the open one). Triggers refuse any change to a
 *   closed batch or to a sale's membership once set (batch-store.ts). `sale.started_by` says who
 *   rang the sale up: the cashier or the POS. `outbox.card_free_body` (version 4): a reversal's body
 *   without card data, in clear, sent when the sealed one cannot be opened.
 * - `sale.kind`, `sale.original_id` (version 8): a return is a row of the sale table of kind
 *   'return', naming the sale it credits (NULL: an unreferenced return). It is a row of its own, not
 *   a change of the sale it returns: it has its own merchantTransID, card data, sale key, queue item
 *   and history, and everything that keeps a sale's money safe (write-ahead, sealing, crypto-shredding,
 *   store-and-forward, recovery, batches) keeps the credit safe the same way, without a second copy.
 * - `sale.returned_minor`, `sale.returning_minor` (version 13): what a sale's crediting returns and
 *   its returns still at the counter add up to, written in the commit that changes a return's state.
 * - `sale_reference_check` (version 14): the sales' references indexed a second time, so that a
 *   POS's retry finds its sale even through a damaged page of the unique index (journal-store.ts
 *   byReference).
 */
import type { Migration } from './migrations'

/**
 * The sales recovery looks at after a restart: those not settled (SETTLED in src-shared/sale, which a
 * test holds this list to). Written out, because a shipped migration never changes: a new settled
 * state means a new step that rebuilds the index. The recovery query uses this text, the same as the
 * newest step's, so that SQLite can use the partial index (a test asks SQLite's query plan).
 */
export const OPEN_SALE_PREDICATE =
  "state NOT IN ('approved', 'declined', 'abandoned', 'reversed', 'cancelled', 'forwarded', 'captured', 'notReceived', 'credited')"

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
        CREATE INDEX sale_open ON sale (state) WHERE state NOT IN ('approved', 'declined', 'abandoned', 'reversed', 'cancelled', 'forwarded', 'captured');

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
  {
    version: 2,
    description: 'sale_open also leaves out notReceived (a stored payment the bank declined, acknowledged by a manager)',
    up(db) {
      db.exec(`
        DROP INDEX sale_open;
        CREATE INDEX sale_open ON sale (state)
          WHERE state NOT IN ('approved', 'declined', 'abandoned', 'reversed', 'cancelled', 'forwarded', 'captured', 'notReceived');
      `)
    },
  },
  {
    version: 3,
    description: "each sale's own key (purged card data unrecoverable), merchantTransID epochs",
    up(db) {
      // Rows sealed before this step stay as they are (envelope version 1, under the data key) and
      // open and purge as before; what is sealed from now on is sealed under the sale's own key.
      db.exec(`
        CREATE TABLE sale_key (
          sale_id    TEXT NOT NULL REFERENCES sale (id),
          key_id     TEXT NOT NULL,                   -- the data key that wraps it
          wrapped    BLOB NOT NULL,                   -- the sale's key, sealed under that data key
          created_at INTEGER NOT NULL,
          PRIMARY KEY (sale_id, key_id)
        ) STRICT;

        CREATE TABLE id_epoch (
          install_id     TEXT NOT NULL,               -- the installation's id (OS keychain)
          epoch          INTEGER NOT NULL,            -- one per start of the agent on that installation
          opened_at      INTEGER NOT NULL,            -- ms since epoch
          first_sequence INTEGER NOT NULL,            -- the merchantTransID sequence it started at
          PRIMARY KEY (install_id, epoch)
        ) STRICT;
      `)
    },
  },
  {
    version: 4,
    description: 'numbered, immutable close-of-day batches; who started each sale; card-free reversal bodies',
    up(db) {
      // Sales journaled before this step have no batch: they belong to the open batch, which the
      // first close after the upgrade closes as batch 1.
      db.exec(`
        CREATE TABLE batch (
          number           INTEGER PRIMARY KEY CHECK (number >= 1),
          closed_at        INTEGER NOT NULL,          -- ms since epoch
          business_day     TEXT NOT NULL,             -- YYYY-MM-DD, terminal local time, of the close
          manager_override INTEGER NOT NULL,
          sale_count       INTEGER NOT NULL,
          summary          TEXT NOT NULL              -- the totals as closed (JSON, no card data)
        ) STRICT;
        CREATE TRIGGER batch_closed_never_changes BEFORE UPDATE ON batch
          BEGIN SELECT RAISE(ABORT, 'a closed batch never changes'); END;
        CREATE TRIGGER batch_closed_never_deleted BEFORE DELETE ON batch
          BEGIN SELECT RAISE(ABORT, 'a closed batch is never deleted'); END;

        ALTER TABLE sale ADD COLUMN batch INTEGER REFERENCES batch (number);
        ALTER TABLE sale ADD COLUMN started_by TEXT;
        CREATE TRIGGER sale_batch_never_changes BEFORE UPDATE OF batch ON sale
          WHEN OLD.batch IS NOT NULL AND NEW.batch IS NOT OLD.batch
          BEGIN SELECT RAISE(ABORT, 'a sale of a closed batch stays in it'); END;
        CREATE TRIGGER sale_joins_closed_batch_only_at_close BEFORE UPDATE OF batch ON sale
          WHEN OLD.batch IS NULL AND NEW.batch IS NOT NULL
            AND NEW.batch <> (SELECT max(number) FROM batch)
          BEGIN SELECT RAISE(ABORT, 'a sale joins only the batch being closed'); END;
        -- Serves both the open batch (batch IS NULL) and a closed one, in the order of their sales.
        CREATE INDEX sale_by_batch ON sale (batch, created_at);

        -- A message that may go without the card (a reversal: its ICC data is optional) keeps a copy
        -- without card data, in clear, so a lost data key can never strand it (outbox-store.ts).
        ALTER TABLE outbox ADD COLUMN card_free_body TEXT;
      `)
    },
  },
  {
    version: 5,
    description: 'operators: cashier and manager accounts, their PINs as scrypt hashes, lockout after wrong PINs; who did what',
    up(db) {
      db.exec(`
        CREATE TABLE operator (
          id              TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 16),
          name            TEXT NOT NULL,
          role            TEXT NOT NULL CHECK (role IN ('cashier', 'manager')),
          pin_hash        TEXT NOT NULL,              -- scrypt$N$r$p$salt$hash (pin-hash.ts), never the PIN
          failed_attempts INTEGER NOT NULL DEFAULT 0,
          locked_until    INTEGER,                    -- ms since epoch
          created_at      INTEGER NOT NULL,
          disabled_at     INTEGER
        ) STRICT;

        -- Who did it: the operator who rang the sale up, who took each step a person took (a void, a
        -- tip, a cancel, an acknowledgement), who closed each batch. Absent before operators existed.
        ALTER TABLE sale ADD COLUMN operator_id TEXT;
        ALTER TABLE sale_event ADD COLUMN operator_id TEXT;
        ALTER TABLE batch ADD COLUMN closed_by TEXT;
      `)
    },
  },
  {
    version: 6,
    description: "receipt facts: the chip's verification results (TVR, TSI) and how the cardholder was verified",
    up(db) {
      // What a card-present receipt prints besides the masked card (docs/receipts.md). Not card data:
      // they identify no card and are not sensitive authentication data, so they stay after the purge.
      db.exec(`
        ALTER TABLE sale ADD COLUMN tvr TEXT;
        ALTER TABLE sale ADD COLUMN tsi TEXT;
        ALTER TABLE sale ADD COLUMN cvm TEXT CHECK (cvm IN ('pin', 'signature', 'pinAndSignature', 'none'));
      `)
    },
  },
  {
    version: 7,
    description: 'why a queued message has not gone through, as a kind (the bank unreachable, no answer, refused, declined)',
    up(db) {
      // The kind is what screens and integrators read (its words: QUEUE_FAILURE_WORDS); last_error
      // keeps the technical detail for the log. Items failed before this version have no kind: the
      // screens then say nothing more than the sale's own reason.
      db.exec(`
        ALTER TABLE outbox ADD COLUMN last_failure TEXT
          CHECK (last_failure IN ('bankUnreachable', 'noAnswer', 'refused', 'declined'));
      `)
    },
  },
  {
    version: 8,
    description: 'returns: a sale-like record of kind return, naming the sale it credits; sale_open leaves out credited',
    up(db) {
      // Every row so far is a sale. A return names the sale it credits; what is left to return is
      // the sale's amount plus tip less its crediting returns, read through sale_by_original.
      db.exec(`
        ALTER TABLE sale ADD COLUMN kind TEXT NOT NULL DEFAULT 'sale' CHECK (kind IN ('sale', 'return'));
        ALTER TABLE sale ADD COLUMN original_id TEXT REFERENCES sale (id);
        CREATE INDEX sale_by_original ON sale (original_id) WHERE original_id IS NOT NULL;
        DROP INDEX sale_open;
        CREATE INDEX sale_open ON sale (state)
          WHERE state NOT IN ('approved', 'declined', 'abandoned', 'reversed', 'cancelled', 'forwarded', 'captured', 'notReceived', 'credited');
      `)
    },
  },
  {
    version: 9,
    description: "shifts: each operator's time signed in at the counter, from sign-in to sign-out, the next sign-in or the close",
    up(db) {
      // A shift belongs to the open batch (batch NULL) until the close ends it and moves it into the
      // batch it closed, in the close's own commit (batch-store.ts). At most one shift is open: the
      // counter has one operator at a time. A shift of a closed batch never changes, as its batch.
      db.exec(`
        CREATE TABLE shift (
          id          INTEGER PRIMARY KEY,
          operator_id TEXT NOT NULL,
          started_at  INTEGER NOT NULL,               -- ms since epoch: the sign-in
          ended_at    INTEGER CHECK (ended_at IS NULL OR ended_at >= started_at),
          batch       INTEGER REFERENCES batch (number)
        ) STRICT;
        CREATE UNIQUE INDEX shift_one_open ON shift ((ended_at IS NULL)) WHERE ended_at IS NULL;
        CREATE INDEX shift_by_batch ON shift (batch, started_at);
        CREATE TRIGGER shift_closed_never_changes BEFORE UPDATE ON shift WHEN OLD.batch IS NOT NULL
          BEGIN SELECT RAISE(ABORT, 'a shift of a closed batch never changes'); END;
        CREATE TRIGGER shift_closed_never_deleted BEFORE DELETE ON shift WHEN OLD.batch IS NOT NULL
          BEGIN SELECT RAISE(ABORT, 'a shift of a closed batch is never deleted'); END;
      `)
    },
  },
  {
    version: 10,
    description: 'the audit trail: sign-ins, lockouts, approvals, windows, tokens, keys and operators, append-only and hash-chained',
    up(db) {
      // Each record's hash covers the one before (audit-store.ts), so a record changed, removed or
      // slipped in breaks the chain from there on; the triggers refuse any change through SQLite.
      db.exec(`
        CREATE TABLE audit (
          seq       INTEGER PRIMARY KEY,
          at        INTEGER NOT NULL,               -- ms since epoch
          action    TEXT NOT NULL,
          door      TEXT NOT NULL,
          via       TEXT,                           -- a token's id, a window's fingerprint; never a secret
          actor     TEXT,                           -- the operator who did or approved it
          subject   TEXT,
          ok        INTEGER NOT NULL CHECK (ok IN (0, 1)),
          detail    TEXT,
          prev_hash TEXT NOT NULL,
          hash      TEXT NOT NULL
        ) STRICT;
        CREATE INDEX audit_by_time ON audit (at);
        CREATE TRIGGER audit_never_changes BEFORE UPDATE ON audit
          BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
        CREATE TRIGGER audit_never_deleted BEFORE DELETE ON audit
          BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
      `)
    },
  },
  {
    version: 11,
    description: 'paired windows: each browser window a launch link opened, by the hash of its secret, what opened it, when last seen',
    up(db) {
      // Only the SHA-256 of a window's secret is kept (the secret lives in the window's HttpOnly
      // cookie), so that a copy of the journal opens no window. A window survives the agent's
      // restarts until it is revoked, its opener is, or it goes unused too long (windows.ts).
      db.exec(`
        CREATE TABLE window_session (
          hash         TEXT PRIMARY KEY CHECK (length(hash) = 64),
          view         TEXT NOT NULL CHECK (view IN ('cashier', 'customer')),
          opened_by    TEXT NOT NULL,               -- JSON: the machine's owner, a token's id, another window's hash
          created_at   INTEGER NOT NULL,
          last_seen_at INTEGER NOT NULL,
          ended_at     INTEGER,
          ended_why    TEXT
        ) STRICT;
      `)
    },
  },
  {
    version: 12,
    description: "a payment's cause as the machine recorded it; a nexo POS's logins, aborts and reversals, kept across restarts",
    up(db) {
      // cause: why a payment ended as it did (src-shared/sale SALE_CAUSES), written by the transition
      // that decided it, so a door reads it instead of parsing the cashier's words back.
      // The nexo tables keep what nexo answers from (src-main/nexo): a POS logged in (Diagnosis), a
      // payment stopped by its Abort, and which sale or return a Reversal's ServiceID was about
      // (TransactionStatus), so the same question gets the same answer before and after a restart.
      // Sales journaled before this version get the cause their reason stood for, once, here: the
      // words are those earlier versions wrote (src-shared/sale/sale-reasons.ts), so an answer
      // about an old sale does not change with the upgrade.
      db.exec(`
        ALTER TABLE sale ADD COLUMN cause TEXT;
        UPDATE sale SET cause = 'cardRefused' WHERE reason IN (
          'the card refused the payment after the bank approved it',
          'the card refused the payment while the bank could not be reached',
          'not completed: the card declined after the bank approved',
          'declined offline by the card');
        UPDATE sale SET cause = 'noAnswer' WHERE cause IS NULL AND reason = 'no valid answer came from the bank';
        UPDATE sale SET cause = 'interrupted' WHERE cause IS NULL AND reason IN (
          'the terminal stopped while waiting for the bank',
          'the terminal stopped before the card confirmed the payment',
          'interrupted before the card approved offline');
        UPDATE sale SET cause = 'bankUnreachable' WHERE cause IS NULL AND state = 'declined' AND offline = 1;
        CREATE TABLE nexo_login (
          sale_id     TEXT PRIMARY KEY,               -- the POS's nexo SaleID
          operator_id TEXT,
          at          INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE nexo_abort (
          sale        TEXT PRIMARY KEY REFERENCES sale (id),
          pos_sale_id TEXT NOT NULL,
          at          INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE nexo_reversal (
          pos_sale_id TEXT NOT NULL,
          service_id  TEXT NOT NULL,
          sale        TEXT NOT NULL REFERENCES sale (id), -- the payment voided, or the return it started
          kind        TEXT NOT NULL CHECK (kind IN ('void', 'return')),
          at          INTEGER NOT NULL,
          PRIMARY KEY (pos_sale_id, service_id)
        ) STRICT;
      `)
    },
  },
  {
    version: 13,
    description: "a sale's returned and returning amounts kept on its row, maintained with its returns' states",
    up(db) {
      // Every read of a sale summed its returns (two subqueries through sale_by_original); the sums
      // are now columns, kept exact by the commit that changes a return's state (journal-store.ts),
      // and filled here once from the returns journaled so far. The states are those of CREDITING
      // and RETURN_AT_COUNTER (src-shared/sale) as this version ships them.
      db.exec(`
        ALTER TABLE sale ADD COLUMN returned_minor INTEGER NOT NULL DEFAULT 0 CHECK (returned_minor >= 0);
        ALTER TABLE sale ADD COLUMN returning_minor INTEGER NOT NULL DEFAULT 0 CHECK (returning_minor >= 0);
        UPDATE sale SET
          returned_minor = (SELECT coalesce(sum(r.amount_minor), 0) FROM sale r
            WHERE r.original_id = sale.id AND r.state IN ('creditPending', 'credited')),
          returning_minor = (SELECT coalesce(sum(r.amount_minor), 0) FROM sale r
            WHERE r.original_id = sale.id AND r.state IN ('created', 'returnReadingCard'))
          WHERE id IN (SELECT original_id FROM sale WHERE original_id IS NOT NULL);
      `)
    },
  },
  {
    version: 14,
    description: "a second index of the sales' references, so that a damaged index page cannot hide a POS's sale from its retry",
    up(db) {
      // The reference is the idempotency key (journal-store.ts byReference): a lookup answered from a
      // damaged page of the unique index alone misses the sale, and the retry would charge the card
      // again. This index lives on pages of its own; a miss is believed only when both miss.
      db.exec('CREATE INDEX sale_reference_check ON sale (reference) WHERE reference IS NOT NULL')
    },
  },
  {
    version: 15,
    description: "a chip card's sequence number (EMV 5F34), which a ZVT register is told with the payment's status",
    up(db) {
      // Not cardholder data (it tells two cards of one account apart); the expiry date, which is, stays sealed and purged.
      db.exec('ALTER TABLE sale ADD COLUMN card_sequence TEXT')
    },
  },
]
