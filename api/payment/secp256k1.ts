// Public-key recovery in native code: libsecp256k1 through the `secp256k1` package, whose binaries ship inside its
// npm package (prebuilds/), so installing it downloads nothing. About 0.05 ms a recovery, where viem's JavaScript
// takes milliseconds on the voucher path (docs/design.md §13). Imported from its bindings directly: the package's own
// entry falls back silently to a JavaScript curve, and a slow check must never stand in unseen for this one. A
// literal import, so the Vercel build traces the binary into the function.

export interface NativeSecp256k1 {
  /**
   * The 65-byte uncompressed public key that signed `digest` with the 64-byte (r, s) `signature` and recovery id;
   * throws when none does.
   */
  ecdsaRecover(signature: Uint8Array, recoveryId: number, digest: Uint8Array, compressed: false): Uint8Array;
}

const loaded: NativeSecp256k1 | Error = await import('secp256k1/bindings.js').then(
  (m) => m.default as NativeSecp256k1,
  (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
);

/** The native library; throws, naming what to do, when it could not load (there is no fallback). */
export function nativeSecp256k1(): NativeSecp256k1 {
  if (loaded instanceof Error)
    throw new Error(
      `x402: the native secp256k1 library could not load (${loaded.message.split('\n')[0]}); prepaid ` +
        `channels check every voucher with it and have no slow fallback: run npm install on a platform ` +
        `the secp256k1 package ships a binary for (linux-x64, darwin-arm64, win32-x64)`,
    );
  return loaded;
}
