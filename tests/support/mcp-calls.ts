// MCP tool calls with figures on the fixture data, shared by the MCP tests.

/** Realistic calls on the fixture data (tests/fixtures/data), every one answered 200 with figures. */
export const FIXTURE_CALLS: { tool: string; args: Record<string, string> }[] = [
  { tool: 'get_coverage', args: {} },
  { tool: 'list_lines', args: { state: 'fl' } },
  { tool: 'list_publications', args: { state: 'IL' } },
  { tool: 'get_premium_sample', args: { state: 'IL' } },
  { tool: 'get_solvency_sample', args: {} },
  { tool: 'get_rates_sample', args: {} },
  { tool: 'get_syndicates_sample', args: {} },
  { tool: 'get_premium', args: { state: 'FL', granularity: 'quarter', from: '2023-10', to: '2024-03' } },
  { tool: 'get_premium', args: { state: 'FL', county: 'miami-dade' } },
  { tool: 'get_premium', args: { state: 'FL', report_date: '2024-03-15' } },
  { tool: 'get_premium', args: { state: 'FL', line: 'category:commercial property' } },
  { tool: 'get_summary', args: { state: 'IL', year: '2023' } },
  { tool: 'compare_states', args: { states: 'FL,IL', granularity: 'year' } },
  { tool: 'get_top_insurers', args: { state: 'FL', period: '2024-01' } },
  { tool: 'get_solvency', args: { insurer: 'Acme Casualty Co.' } },
  { tool: 'list_enforcement_actions', args: { action_type: 'fine', state: 'ma' } },
  { tool: 'list_rate_filings', args: { state: 'FL', coverage_category: 'property' } },
  { tool: 'get_rate_activity', args: { states: 'FL,TX', granularity: 'quarter' } },
  { tool: 'get_syndicate', args: { syndicate: '1234' } },
  { tool: 'get_eligibility', args: { insurer: 'Harbor Excess' } },
];
