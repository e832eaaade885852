// The `secp256k1` package's native bindings (it ships no types); ./secp256k1.ts says what it uses of them.
declare module 'secp256k1/bindings.js' {
  const bindings: unknown;
  export default bindings;
}
