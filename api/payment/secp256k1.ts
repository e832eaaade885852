// Public-key recovery in native code: libsecp256k1 through the `secp256k1` package, whose binaries ship inside its
// npm package (prebuilds/), so installing it downloads nothing. About 0.05 ms a recovery, where viem's JavaScript
// takes milliseconds on the voucher path (docs/design.md §13). Loaded from its bindings directly: the package's own
// entry falls back silently to a JavaScript curve, and a slow check must never stand in unseen for this one.
import { createRequire } from 'node:module';

export interface NativeSecp256k1 {
  /** The 65-byte uncompressed public key that signed `digest` with the 64-byte (r, s) `signature` and recovery id; throws when none does. */
  ecdsaRecover(signature: Uint8Array, recoveryId: number, digest: Uint8Array, compressed: false): Uint8Array;
}

let loaded: NativeSecp256k1 | undefined;

/** The native library; throws, naming what to do, when it cannot load (there is no fallback). */
export function nativeSecp256k1(): NativeSecp256k1 {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('secp256k1/bindings.js') as NativeSecp256k1;
  } catch (e) {
    throw new Error(
      `x402: the native secp256k1 library could not load (${String((e as Error)?.message ?? e).split('\n')[0]}); prepaid channels check every voucher with it and have no slow fallback: run npm install on a platform the secp256k1 package ships a binary for (linux-x64, darwin-arm64, win32-x64)`,
    );
  }
  return loaded;
}
