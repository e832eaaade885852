// x402's MCP transport keys (specs/transports-v2/mcp.md), in a module of their own that imports nothing, so the
// MCP tools name them without loading the payment stack (api/payment/configured.ts loads it when the gate is on).

/** The payment, in a tools/call request's `params._meta`. */
export const MCP_PAYMENT_META = 'x402/payment';
/** The receipt, in its result's `_meta`. */
export const MCP_PAYMENT_RESPONSE_META = 'x402/payment-response';
