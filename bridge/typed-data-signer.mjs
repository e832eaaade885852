// @ts-check
// EIP-712 signatures with the payer's key: in native code (libsecp256k1, from the `secp256k1` package's binary that
// ships inside its npm package), about 0.1 ms, where viem's JavaScript takes 0.3 ms on the paid call's path. On a
// platform the package ships no binary for, viem signs: the very same signature (both are RFC 6979, low s, v 27 or 28),
// only slower, so the bridge runs anywhere. Loaded from the bindings directly: the package's own entry would fall
// back to a slower JavaScript curve unseen.
import { createRequire } from 'node:module';
import { bytesToHex, hashTypedData, hexToBytes } from 'viem';

/** @type {{ ecdsaSign(digest: Uint8Array, key: Uint8Array): { signature: Uint8Array, recid: number } } | null} */
let native = null;
try {
  native = createRequire(import.meta.url)('secp256k1/bindings.js');
} catch {
  native = null;
}

/** Whether signatures are made in native code here. */
export const signsNatively = native !== null;

/**
 * A `signTypedData` for the payer with `key`: native where it loaded, else `account`'s own.
 * @param {import('viem/accounts').PrivateKeyAccount} account
 * @param {`0x${string}`} key
 * @returns {import('@x402/evm').ClientEvmSigner['signTypedData']}
 */
export function typedDataSigner(account, key) {
  const lib = native;
  if (!lib) return (args) => account.signTypedData(/** @type {never} */ (args));
  const secret = hexToBytes(key);
  return async (args) => {
    const { signature, recid } = lib.ecdsaSign(hexToBytes(hashTypedData(/** @type {never} */ (args))), secret);
    const out = new Uint8Array(65);
    out.set(signature);
    out[64] = recid + 27;
    return bytesToHex(out);
  };
}
