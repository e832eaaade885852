// @ts-check
// A tool call forwarded to the remote, paid when it is priced. A priced call's first answer is the x402 terms (a tool
// error carrying PaymentRequired); the bridge keeps them per tool, so later calls carry their payment at once: one
// round trip, the voucher signed locally. Each paid call holds the state directory's lock from reading the budget to
// recording what the receipt says was charged, so the cap holds whatever runs beside it; the result is returned before
// that bookkeeping, which the next paid call waits for.
import { BATCH, chooseTerms } from './terms.mjs';
import { DepositRefused, chargedBy } from './wallet.mjs';
import { formatUsd } from './usd.mjs';

/** x402's MCP transport: the payment in the call's `_meta`, the receipt in the result's. */
export const PAYMENT_META = 'x402/payment';
export const RECEIPT_META = 'x402/payment-response';

/**
 * @typedef {import('@modelcontextprotocol/client').CallToolResult} CallToolResult
 * @typedef {import('@x402/core/types').PaymentRequired} PaymentRequired
 * @typedef {import('@x402/core/types').PaymentPayload} PaymentPayload
 * @typedef {import('@x402/core/types').SettleResponse} SettleResponse
 */

/**
 * The x402 terms a tool result carries, if it is an unpaid priced call's.
 * @param {CallToolResult} result
 * @returns {PaymentRequired | null}
 */
export function termsOf(result) {
  const s = /** @type {Record<string, unknown> | undefined} */ (result.structuredContent);
  return result.isError && s && typeof s.x402Version === 'number' && Array.isArray(s.accepts)
    ? /** @type {PaymentRequired} */ (/** @type {unknown} */ (s))
    : null;
}

/**
 * A tool error of the bridge's own, said as the service says its errors.
 * @param {string} code
 * @param {string} message
 * @returns {CallToolResult}
 */
export const bridgeError = (code, message) => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify({ error: { code, message } }) }],
});

/**
 * A JSON-RPC error the remote answered (an unknown tool, bad params): said as it is, never retried.
 * @param {unknown} e
 */
export const isProtocolError = (e) => typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'number';

/**
 * @param {PaymentPayload} payment
 * @returns {bigint | null} the deposit a payment makes, if it makes one
 */
function depositOf(payment) {
  const inner = /** @type {{ type?: string, deposit?: { amount?: string } }} */ (payment.payload);
  return inner.type === 'deposit' && typeof inner.deposit?.amount === 'string' ? BigInt(inner.deposit.amount) : null;
}

/**
 * Sends a paid call; an answer lost on the way (the connection dropped, the service restarted) is asked for once
 * more with the same payment, whose id makes the service answer it again with its receipt instead of charging twice.
 * @param {import('./remote.mjs').RemoteServer} remote
 * @param {string} tool
 * @param {Record<string, unknown>} args
 * @param {PaymentPayload} payment
 * @returns {Promise<CallToolResult>}
 */
async function sent(remote, tool, args, payment) {
  try {
    return await remote.call(tool, args, { [PAYMENT_META]: payment });
  } catch (first) {
    if (isProtocolError(first)) throw first;
    try {
      return await remote.call(tool, args, { [PAYMENT_META]: payment });
    } catch (e) {
      if (isProtocolError(e)) throw e;
      throw new Error(
        `a payment was sent but no answer came back (${/** @type {Error} */ (e).message}): the service may have charged it, and the next paid call counts what it did`,
        { cause: e },
      );
    }
  }
}

/**
 * The line a paid result ends with: what it cost, how it was paid, and the budget.
 * @param {{ charged: bigint, deposit: bigint | null, channelId: string | null, transaction: string, spent: bigint, budget: bigint }} p
 */
function paidNote({ charged, deposit, channelId, transaction, spent, budget }) {
  const how = channelId
    ? `from the prepaid channel${deposit !== null ? `, with a deposit of ${formatUsd(deposit)} USD into it (transaction ${transaction})` : ''}`
    : `by a signed transfer (exact, transaction ${transaction})`;
  return `paid ${formatUsd(charged)} USD ${how}; ${formatUsd(spent)} of the ${formatUsd(budget)} USD budget spent`;
}

/**
 * What the tool calls use: the remote service, the wallet that pays, and the state directory's spending record, its
 * lock and the limits set.
 * @typedef {object} Deps
 * @property {import('./remote.mjs').RemoteServer} remote
 * @property {import('./wallet.mjs').Wallet} wallet
 * @property {ReturnType<typeof import('./ledger.mjs').ledger>} ledger
 * @property {ReturnType<typeof import('./state-lock.mjs').stateLock>} lock
 * @property {import('./terms.mjs').Limits} limits
 * @typedef {import('./ledger.mjs').Spending} Spending
 */

/**
 * After the server refused a payment, answering with its terms again: a voucher out of step (the server charged more
 * than this directory knows: another client of the same key, or an answer lost on the way) is resynchronised, and
 * what the server charged meanwhile counts as spent.
 * @param {Deps} deps
 * @param {Spending} spending
 * @param {PaymentPayload} payment
 * @param {PaymentRequired} again
 * @param {string | null} channelId
 */
async function resynchronise({ wallet, ledger }, spending, payment, again, channelId) {
  const before = channelId ? await wallet.channel(channelId) : null;
  if (await wallet.recover(payment, again)) {
    const after = channelId ? await wallet.channel(channelId) : null;
    if (before && after && after.charged > before.charged)
      ledger.write({ ...spending, spent: spending.spent + (after.charged - before.charged) });
  }
}

/**
 * A charged call's result, ending with what it cost, and the bookkeeping that follows it (the receipt taken into the
 * channel, the spending recorded).
 * @param {Deps} deps
 * @param {Spending} spending
 * @param {PaymentPayload} payment
 * @param {string | null} channelId
 * @param {CallToolResult} result
 * @param {SettleResponse} receipt
 * @returns {{ result: CallToolResult, after: () => Promise<void> }}
 */
function charged({ wallet, ledger, limits }, spending, payment, channelId, result, receipt) {
  const cost = chargedBy(payment, receipt);
  const deposit = depositOf(payment);
  const spent = spending.spent + cost;
  const note = paidNote({
    charged: cost,
    deposit,
    channelId,
    transaction: receipt.transaction,
    spent,
    budget: limits.budget,
  });
  return {
    result: { ...result, content: [...result.content, { type: 'text', text: note }] },
    after: async () => {
      await wallet.settled(payment, receipt);
      ledger.write({
        spent,
        deposited: spending.deposited + (deposit ?? 0n),
        channelId: channelId ?? spending.channelId,
      });
    },
  };
}

/**
 * A paid call: its result, and the bookkeeping that follows it (the receipt taken into the channel, the spending
 * recorded), done after the result is returned but before the state lock is let go.
 * @param {Deps} deps
 * @param {Map<string, PaymentRequired>} terms the terms each priced tool last asked for, renewed when refused
 * @param {string} tool
 * @param {Record<string, unknown>} args
 * @param {PaymentRequired} required
 * @param {number} retries
 * @returns {Promise<{ result: CallToolResult, after?: () => Promise<void> }>}
 */
async function paid(deps, terms, tool, args, required, retries) {
  const { remote, wallet, ledger, limits } = deps;
  const spending = ledger.read();
  const choice = chooseTerms(required, limits, spending.spent);
  if ('refusal' in choice) return { result: bridgeError(choice.refusal.code, choice.refusal.message) };
  const { requirement } = choice;
  let payment;
  try {
    payment = await wallet.sign(required, requirement, limits.budget - spending.spent);
  } catch (e) {
    if (e instanceof DepositRefused) return { result: bridgeError(e.refusal.code, e.refusal.message) };
    throw e;
  }
  const channelId = requirement.scheme === BATCH ? wallet.channelIdOf(requirement) : null;
  const result = await sent(remote, tool, args, payment);
  const again = termsOf(result);
  if (again) {
    terms.set(tool, again);
    await resynchronise(deps, spending, payment, again, channelId);
    if (retries > 0) return paid(deps, terms, tool, args, again, retries - 1);
    return {
      result: bridgeError(
        'payment_refused',
        `the server refused the payment (${again.error ?? 'no reason given'}); nothing was charged`,
      ),
    };
  }
  const receipt = /** @type {SettleResponse | undefined} */ (result._meta?.[RECEIPT_META]);
  // No receipt: an answer with no figure, which is not charged; the voucher was not recorded, so nothing changes.
  if (!receipt?.success) return { result };
  return charged(deps, spending, payment, channelId, result, receipt);
}

/** @param {Deps} deps */
export function toolCalls(deps) {
  const { remote, lock } = deps;
  /** The terms each priced tool last asked for. @type {Map<string, PaymentRequired>} */
  const terms = new Map();

  return {
    /**
     * @param {string} tool
     * @param {Record<string, unknown>} args
     * @returns {Promise<CallToolResult>}
     */
    async call(tool, args) {
      let required = terms.get(tool);
      if (!required) {
        const result = await remote.call(tool, args);
        required = termsOf(result) ?? undefined;
        if (!required) return result; // free, an error, or the gate is off
        terms.set(tool, required);
      }
      const offered = required;
      // The result goes back as soon as it is known; the lock is held until its bookkeeping is done, so the next
      // paid call (of this process or another) starts from the recorded state.
      return new Promise((resolve, reject) => {
        let answered = false;
        lock
          .run(async () => {
            const { result, after } = await paid(deps, terms, tool, args, offered, 1);
            resolve(result);
            answered = true;
            await after?.();
          })
          .catch((/** @type {unknown} */ e) => {
            if (!answered) return reject(e);
            // The answer was paid and given; the next paid call resynchronises from the server's record.
            process.stderr.write(
              `surplus-lines-mcp: a paid call's receipt could not be recorded: ${/** @type {Error} */ (e).message}\n`,
            );
          });
      });
    },
  };
}
