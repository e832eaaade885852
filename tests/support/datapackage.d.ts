// Frictionless's datapackage-js ships no types: the one function the tests call.
declare module 'datapackage' {
  /** Validates a descriptor against its profile (tabular-data-package here). */
  export function validate(descriptor: object): Promise<{ valid: boolean; errors: Error[] }>;
  const datapackage: { validate: typeof validate };
  export default datapackage;
}
