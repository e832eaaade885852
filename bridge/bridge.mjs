// @ts-check
// The stdio MCP server an MCP client launches (v2 SDK): the remote's tools as the remote lists them, names, schemas
// and descriptions (with their prices) untouched, and `wallet_status`; every other call forwarded to the remote,
// priced ones paid by ./tool-calls.mjs. A call the remote refuses as a protocol error is refused the same way.
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { WALLET_STATUS_TOOL, walletStatus } from './wallet-status.mjs';
import { bridgeError, isProtocolError, toolCalls } from './tool-calls.mjs';

const INSTRUCTIONS =
  'U.S. surplus lines market figures from state stamping-office publications. Priced tools are paid by this bridge ' +
  'from a prepaid channel within its budget, and each paid result says what it cost; wallet_status shows what is spent.';

/**
 * @param {object} deps
 * @param {import('./remote.mjs').RemoteServer} deps.remote
 * @param {import('./wallet.mjs').Wallet} deps.wallet
 * @param {ReturnType<typeof import('./ledger.mjs').ledger>} deps.ledger
 * @param {ReturnType<typeof import('./state-lock.mjs').stateLock>} deps.lock
 * @param {import('./options.mjs').Options} deps.options
 * @param {string} deps.version
 */
export function serveBridge({ remote, wallet, ledger, lock, options, version }) {
  const calls = toolCalls({ remote, wallet, ledger, lock, limits: options });
  /** The remote's tools, listed once they could be. @type {Promise<import('@modelcontextprotocol/client').Tool[]> | undefined} */
  let listed;
  const remoteTools = () =>
    (listed ??= remote.tools().catch((e) => {
      listed = undefined;
      throw new Error(
        `the service at ${remote.url.href} could not be reached to list its tools: ${/** @type {Error} */ (e).message}`,
      );
    }));

  return serveStdio(() => {
    const server = new Server(
      { name: 'surplus-lines-mcp', version },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
    );
    // The bridge's own tool answers its name, so a remote tool of that name is not listed.
    server.setRequestHandler('tools/list', async () => ({
      tools: [...(await remoteTools()).filter((t) => t.name !== WALLET_STATUS_TOOL.name), WALLET_STATUS_TOOL],
    }));
    server.setRequestHandler('tools/call', async (request) => {
      const { name, arguments: args = {} } = request.params;
      // Under the state lock: a paid call's bookkeeping, done after its answer, is finished first.
      if (name === WALLET_STATUS_TOOL.name) return lock.run(() => walletStatus({ wallet, ledger, options }));
      await remoteTools(); // the SDK client checks each answer against the tool's output schema, once listed
      try {
        return await calls.call(name, args);
      } catch (e) {
        if (isProtocolError(e)) throw e; // the remote's protocol error, as it said it
        return bridgeError('call_failed', `the call could not be completed: ${/** @type {Error} */ (e).message}`);
      }
    });
    return server;
  });
}
