// list_enforcement_actions (0.10 USD). REST twin: GET /v1/enforcement.
import { enforcement } from '../../routes/list-enforcement-actions.ts';
import { toolOf } from '../tool.ts';

export const listEnforcementActions = toolOf(enforcement);
