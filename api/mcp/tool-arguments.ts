// A tool call's arguments checked as its route checks a query string: the same schema, the same messages.
import type { z } from 'zod';
import { LIST_PARAMETERS } from '../../domain/contract-params.ts';
import { echo } from '../../domain/echo.ts';
import { invalidRequest } from '../../domain/errors.ts';
import { parseValues, unknownParameter } from '../params.ts';
import { toolParameterNames } from './tool-definition.ts';

/**
 * A call's arguments as the text a query string would carry: a number or boolean as written, a list
 * joined with commas (one string where a list is expected is a list of one). Unknown names are refused
 * as unknown parameters; null is an omitted argument.
 */
function argumentValues(args: unknown, params: z.ZodObject): Record<string, string> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args))
    throw invalidRequest('invalid arguments: expected an object of named arguments');
  const allowed = toolParameterNames(params);
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (!allowed.includes(name)) throw unknownParameter(name, allowed);
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') values[name] = value;
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
      values[name] = String(value);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) values[name] = value.join(',');
    else
      throw invalidRequest(
        `invalid '${name}' ${echo(JSON.stringify(value) ?? String(value))}: expected a string` +
          `${LIST_PARAMETERS.includes(name) ? ' or a list of strings' : ''}`,
      );
  }
  return values;
}

/** A call's arguments parsed with its route's schema (defaults applied); a QueryError names what is wrong. */
export const parsedArguments = <S extends z.ZodObject>(args: unknown, params: S): z.infer<S> =>
  parseValues(argumentValues(args, params), params);
