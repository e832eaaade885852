// @ts-check
// The payer's private key: from X402_PAYER_KEY or a key file only its owner can read (a key file others can read
// is refused, as ssh refuses one). Nothing here ever puts the key, or a part of it, in a message.
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from './options.mjs';

const KEY = /^(?:0x)?([0-9a-fA-F]{64})$/;

/**
 * @param {string | undefined} keyFile the `--key-file` flag
 * @param {Record<string, string | undefined>} env
 * @returns {`0x${string}`}
 */
export function readPayerKey(keyFile, env) {
  const fromEnv = env.X402_PAYER_KEY;
  if (keyFile !== undefined && fromEnv)
    throw new UsageError('the payer key is given twice (--key-file and X402_PAYER_KEY): give it one way');
  if (keyFile === undefined) {
    if (!fromEnv)
      throw new UsageError(
        'no payer key: set X402_PAYER_KEY or pass --key-file FILE (a file only you can read holding 0x and 64 hex digits)',
      );
    return checked(fromEnv, 'X402_PAYER_KEY');
  }
  let stat;
  try {
    stat = statSync(keyFile);
  } catch {
    throw new UsageError(`--key-file ${keyFile} cannot be read`);
  }
  // Permission bits mean nothing on Windows; elsewhere only the owner may read a key.
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    throw new UsageError(
      `--key-file ${keyFile} can be read by others (mode ${(stat.mode & 0o777).toString(8)}): run chmod 600 ${keyFile}`,
    );
  }
  return checked(readFileSync(keyFile, 'utf8'), `--key-file ${keyFile}`);
}

/**
 * @param {string} text
 * @param {string} source
 * @returns {`0x${string}`}
 */
function checked(text, source) {
  const m = KEY.exec(text.trim());
  if (!m) throw new UsageError(`${source} does not hold a private key: expected 0x followed by 64 hex digits`);
  return `0x${m[1].toLowerCase()}`;
}
