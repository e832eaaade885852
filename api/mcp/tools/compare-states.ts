// compare_states (0.50 USD): the premium series of 1 to 15 states. REST twin: GET /v1/compare.
import { compare } from '../../routes/compare-states.ts';
import { toolOf } from '../tool.ts';

export const compareStates = toolOf(compare);
