// The OpenAPI 3.1 document, generated from the contract (domain/route-contracts.ts and the schemas it names):
// parameters, bodies, prices and rules are never written twice. Served prerendered at /openapi.json.
import { z } from 'zod';
import { ROUTE_CONTRACTS, type RouteContract } from '../domain/route-contracts.ts';
import { CONDITIONAL_SENTENCE, OPENAPI_CAVEATS, PROVENANCE, caveatBullet } from './caveats.ts';
import { FREE_CACHE, PRICED_CACHE } from './responses.ts';
import { parametersSchema } from './json-schemas.ts';
import { type PaymentTerms, X402_VERSION, atomicAmount, paymentTerms } from './payment/terms.ts';
import { type PaymentSettings, paymentSettings } from './payment/settings.ts';
import { registeredSchemes } from './payment/schemes.ts';

type Json = Record<string, unknown>;

/** The payment schemes' own rules (./payment/schemes.ts), each a bullet after the prices'. */
const SCHEME_RULES = registeredSchemes()
  .flatMap((scheme) => (scheme.openApiRule ? [`${scheme.openApiRule}\n`] : []))
  .join('');

const RULES =
  `${PROVENANCE}\n` +
  `\n` +
  `${OPENAPI_CAVEATS.map(caveatBullet).join('\n')}\n` +
  `- **Prices.** Priced routes cost the USD amount in \`x-price-usd\` per query, paid with x402 ` +
  `version 2 (USDC on Base by default). Each priced operation's \`x-payment-info\` states the ` +
  `price and the x402 terms (version, scheme, network, asset, and \`amount\` in the asset's atomic ` +
  `units); its \`payTo\` is there only when the deployment was built with the payment gate on. The ` +
  `authoritative terms are always the 402 challenge's. When the payment gate is on, a request ` +
  `without a valid payment gets 402 with a \`PAYMENT-REQUIRED\` header and body \`{}\`; validation ` +
  `(400) and existence (404) come first, so a bad request is never charged. The challenge's ` +
  `\`resource.url\` names the route with its query as parsed (defaults applied, duplicates folded, ` +
  `codes uppercased), never the request's own text, so its size does not grow with the request. ` +
  `The client retries with the signed payment in \`PAYMENT-SIGNATURE\`; a header that is not ` +
  `base64 JSON gets 402 with the reason \`invalid_payment_header\`; the answer is computed (kept, ` +
  `not sent) and the payment settled, the facilitator's settle checking it (no separate verify), ` +
  `and the 200 carries \`PAYMENT-RESPONSE\`. Retry-safe payments: every 402 declares the x402 ` +
  `\`payment-identifier\` extension (not required); a payment carrying an id already settled ` +
  `within 24 hours for the same method and canonical query gets that answer again with the ` +
  `original receipt, its own payment verified (same payer) and not settled; the same id for ` +
  `another query is refused (\`payment_identifier_conflict\`); two requests racing with one id ` +
  `settle once. No charge for nothing: an answer that holds no figure (its \`publications\` list ` +
  `is empty: empty \`data\`, or nothing at all) is answered 200 and never settled, with no ` +
  `\`PAYMENT-RESPONSE\`, and the payer keeps the money (the signed authorization expires unused). ` +
  `An answer that fails (500) is not settled; a payment that fails verification or settlement gets ` +
  `402 and no data; a payment is good for one answer. If the payment facilitator is unreachable ` +
  `the answer is 503 with \`Retry-After\` and nothing served; nothing is charged unless the ` +
  `facilitator was lost while settling, which the message then says. HEAD never pays: it answers ` +
  `the challenge. Free routes never need payment.\n` +
  `${SCHEME_RULES}- **Re-checking is free (conditional requests).** ` +
  `${CONDITIONAL_SENTENCE[0].toUpperCase()}${CONDITIONAL_SENTENCE.slice(1)}\n` +
  `- **Bulk files.** \`/v1/bulk/premium.csv\` and \`/v1/bulk/premium.parquet\` are the whole ` +
  `premium table, every figure and vintage, one row per figure; \`/v1/bulk/datapackage.json\` ` +
  `(free) describes them as a Frictionless Data Package with each file's size and SHA-256. They ` +
  `are HTTP downloads, not MCP tools. The official x402 client refuses a payment over $1 unless ` +
  `its spend controls allow more (\`maxAmountPerPayment\`).\n` +
  `- **Paths and methods.** Each route answers at its exact path (lower case, no trailing slash); ` +
  `any other path under /v1, however spelled, is a 404 in the error body whose message names the ` +
  `route it was near (\`/v1/premium/\` → did you mean \`/v1/premium\`). GET and HEAD; OPTIONS ` +
  `answers CORS preflight; any other method is 405.\n` +
  `- **Errors.** \`{"error":{"code","message"}}\`: 400 invalid_request (the message names the ` +
  `parameter and what was expected; unknown and repeated parameters are refused; a malformed Host ` +
  `header or HTTP request is refused too), 404 not_found (unknown state, line, county or route), ` +
  `500 internal, 503 internal (payment facilitator unavailable). Messages quote what was sent cut ` +
  `to 80 characters. A 500 on any route, free ones included, means a data file of the deployment ` +
  `is missing or damaged: it says nothing of which, is never cached (\`no-store\`), and the next ` +
  `request tries again.`;

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${(schema.meta() as { id: string }).id}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const cacheHeader = (value: string) => ({
  'Cache-Control': { description: value, schema: { type: 'string', const: value } },
});

/** A query parameter as the OpenAPI document (and /llms.txt) describe it. */
export interface QueryParameter {
  name: string;
  in: 'query';
  required: boolean;
  description?: string;
  example?: unknown;
  schema: Json;
}

/** A route's query parameters, from its zod schema: name, required, description, example and JSON schema. */
export function queryParameters(params: z.ZodObject): QueryParameter[] {
  const schema = parametersSchema(params);
  return Object.entries(schema.properties).map(([name, { description, example, ...rest }]) => ({
    name,
    in: 'query' as const,
    required: schema.required?.includes(name) ?? false,
    ...(typeof description === 'string' && description ? { description } : {}),
    ...(example !== undefined ? { example } : {}),
    schema: rest,
  }));
}

const PAYMENT_SIGNATURE = {
  name: 'PAYMENT-SIGNATURE',
  in: 'header',
  required: false,
  description:
    "The x402 v2 payment (base64 JSON PaymentPayload) answering this route's 402 challenge; good for " +
    'one answer. Omit it to get the challenge.',
  schema: { type: 'string' },
};

/**
 * The text/csv answer of a route that takes `format` (docs/design.md §11), described as its `format` parameter
 * describes it.
 */
const csvContent = (format: z.ZodType) => ({
  'text/csv': {
    schema: {
      type: 'string',
      description:
        `With format=csv: RFC 4180 (CRLF line ends), a header line, then ` +
        `${String(format.meta()?.description).replace(/^json \(default\) or csv: text\/csv, /, '')}`,
    },
  },
});

const VALIDATORS = {
  ETag: {
    description:
      'Strong entity tag, a hash of the body (hex): its SHA-256, or for a priced JSON or CSV answer an ' +
      'HMAC-SHA256 when the deployment sets a key; a compressed answer names its coding inside the ' +
      'quotes (`"<hex>-br"`). Send it back in If-None-Match.',
    schema: { type: 'string' },
  },
  'Last-Modified': {
    description: 'The newest report_date the answer cites (else the newest of the build), at midnight GMT.',
    schema: { type: 'string' },
  },
};

/** The conditional request headers every operation takes (RFC 9110 13.1). */
const CONDITIONAL_HEADERS = [
  {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'ETags of answers held (weak comparison, any coding; `*` matches any): the current one gets 304 ' +
      'Not Modified, no body, no payment.',
    schema: { type: 'string' },
  },
  {
    name: 'If-Modified-Since',
    in: 'header',
    required: false,
    description:
      "Ignored when If-None-Match is sent, or when it is no HTTP-date. One no older than the answer's " +
      'Last-Modified gets 304 Not Modified, no body, no payment. Last-Modified is a publication date: ' +
      'a correction does not move it, so prefer If-None-Match.',
    schema: { type: 'string' },
  },
];

/** The content of a 200: JSON (and CSV with format=csv), or a download's own media type. */
function content(route: RouteContract, format: z.ZodType | undefined): Json {
  const type = route.download?.mediaType.split(';')[0];
  if (type && type !== 'application/json') return { [type]: { schema: ref(route.response) } };
  return { ...json(ref(route.response)), ...(format ? csvContent(format) : {}) };
}

function responses(route: RouteContract): Json {
  const format = route.params?.shape.format as z.ZodType | undefined;
  const disposition = format
    ? 'With format=csv: attachment, with a file name naming the query.'
    : route.download && `attachment; filename="${route.download.fileName}"`;
  const out: Json = {
    200: {
      description: 'OK',
      headers: {
        ...cacheHeader(route.priceUsd ? PRICED_CACHE : FREE_CACHE),
        ...VALIDATORS,
        ...(disposition ? { 'Content-Disposition': { description: disposition, schema: { type: 'string' } } } : {}),
      },
      content: content(route, format),
    },
    304: {
      description:
        'Not Modified: the request named the current ETag in If-None-Match (or an If-Modified-Since no ' +
        'older than Last-Modified). No body; never charged.',
      headers: {
        ETag: VALIDATORS.ETag,
        'Last-Modified': VALIDATORS['Last-Modified'],
        ...cacheHeader(route.priceUsd ? PRICED_CACHE : FREE_CACHE),
      },
    },
  };
  if (route.priceUsd)
    (out[200] as { headers: Json }).headers['PAYMENT-RESPONSE'] = {
      description:
        'When the payment gate is on and the answer holds figures: base64 JSON x402 settlement receipt ' +
        '(success, transaction hash, network, payer). Absent on an answer with no figure, which is not ' +
        'charged.',
      schema: { type: 'string' },
    };
  const error = (description: string) => ({
    description,
    headers: cacheHeader('no-store'),
    content: json({ $ref: '#/components/schemas/Error' }),
  });
  for (const status of route.errors) {
    if (status === 400) out[400] = error('Invalid query parameter: the message names it and what was expected.');
    if (status === 404)
      out[404] = error('Unknown state, coverage line or county (or, for /v1/insurers, no ranking for the period).');
    if (status === 500)
      out[500] = error(
        `Internal error (for example a missing or damaged data file of the deployment); leaks no detail, ` +
          `is never cached, and the next request tries again.` +
          `${route.priceUsd ? ' A paid request whose answer fails is not settled: the payer is not charged.' : ''}`,
      );
    if (status === 503)
      out[503] = {
        ...error(
          'Payment gate on, and the x402 payment facilitator could not be reached (or timed out): nothing ' +
            'was served. Nothing was charged, unless the facilitator was lost while settling, in which case ' +
            'the message says the payment may still complete. Retry after the number of seconds in ' +
            'Retry-After.',
        ),
        headers: {
          ...cacheHeader('no-store'),
          'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string' } },
        },
      };
    if (status === 402)
      out[402] = {
        description:
          `Payment required (payment gate on, no valid payment): ${route.priceUsd} USD per query under ` +
          `x402 version 2. Pay the challenge in PAYMENT-REQUIRED and retry with the signed payment in the ` +
          `PAYMENT-SIGNATURE header. A payment that does not match the terms (or whose payment id ` +
          `conflicts) answers 402 again, its challenge's \`error\` naming the reason as a code; one ` +
          `refused at settlement answers 402 with that code and a PAYMENT-RESPONSE whose \`success\` is ` +
          `false. No data is served either way.`,
        headers: {
          'PAYMENT-REQUIRED': {
            description:
              "Base64-encoded x402 v2 challenge (JSON): `accepts` gives price (`amount` in the asset's atomic " +
              'units), network, payee (`payTo`) and asset; `resource` describes the route, and ' +
              '`extensions.bazaar` its input and output schemas.',
            schema: { type: 'string' },
          },
          'PAYMENT-RESPONSE': {
            description:
              'Only after a payment refused at settlement: base64 JSON with success false, an errorReason ' +
              'code, network and payer.',
            schema: { type: 'string' },
          },
          ...cacheHeader(PRICED_CACHE),
        },
        content: json({ type: 'object', maxProperties: 0 }),
      };
  }
  out[405] = error('Method not allowed: GET and HEAD only (OPTIONS answers CORS preflight). Header Allow lists them.');
  return out;
}

/**
 * x402 discovery for crawlers: the price, and the x402 terms a 402 challenge will state for each scheme (version,
 * scheme, network, asset, amount in atomic units, and what the scheme adds: a channel's least deposit), with the
 * payee when the gate's settings are known.
 */
function paymentInfo(priceUsd: string, terms: PaymentTerms): Json {
  return {
    price: { mode: 'fixed', currency: 'USD', amount: priceUsd },
    protocols: registeredSchemes().map((scheme) => ({
      x402: {
        version: X402_VERSION,
        scheme: scheme.name,
        network: terms.network,
        asset: terms.asset.address,
        amount: atomicAmount(priceUsd, terms),
        ...(terms.payTo ? { payTo: terms.payTo } : {}),
        ...scheme.paymentInfo?.(priceUsd, terms),
      },
    })),
  };
}

/**
 * The document. `settings`: the payment gate's, as at build time (default: the environment's; null when
 * X402_PAY_TO is unset, and then the x402 terms are the gate's defaults, without a payee).
 */
export function openApiDocument(settings: PaymentSettings | null = paymentSettings()): Json {
  const terms = paymentTerms(settings);
  const { schemas } = z.toJSONSchema(z.globalRegistry, { io: 'output', uri: (id) => `#/components/schemas/${id}` });
  const components = Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema, $id, ...schema }]) => [id, schema]),
  );
  const paths: Json = {};
  for (const route of ROUTE_CONTRACTS) {
    paths[route.path] = {
      get: {
        operationId: route.operationId,
        summary: route.summary,
        description:
          `${route.description}\n\n` + `${route.priceUsd ? `Price: ${route.priceUsd} USD per query (x402).` : 'Free.'}`,
        tags: [route.priceUsd ? 'priced' : 'free'],
        ...(route.priceUsd
          ? { 'x-price-usd': route.priceUsd, 'x-payment-info': paymentInfo(route.priceUsd, terms) }
          : { security: [] }),
        parameters: [
          ...(route.params ? queryParameters(route.params) : []),
          ...CONDITIONAL_HEADERS,
          ...(route.priceUsd ? [PAYMENT_SIGNATURE] : []),
        ],
        responses: responses(route),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Surplus Lines Market Data API', version: '1.0.0', description: RULES },
    servers: [{ url: '/' }],
    tags: [
      { name: 'free', description: 'No payment, cacheable for an hour.' },
      { name: 'priced', description: 'Paid per query with x402 when the payment gate is on.' },
    ],
    paths,
    components: { schemas: components },
  };
}
