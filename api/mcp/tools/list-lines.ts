// list_lines (free): a state's coverage lines, as {"lines": [...]}. REST twin: GET /v1/lines.
import { lines } from '../../routes/get-lines.ts';
import { toolOf } from '../tool.ts';

export const listLines = toolOf(lines);
