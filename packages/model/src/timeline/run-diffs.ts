import type { ChangeAuditStamp, ChangeEvent } from './change-event.js';
import { record, text, type Json } from './aspect-values.js';

const completed = (value: Json | undefined) => value?.['status'] === 'COMPLETE';

/**
 * An assertion run that completed (the ecosystem's assertion run generator): RUN COMPLETED with the
 * run's status, id, assertee and, when the run has a result, its type.
 */
export function assertionRunChanges(
  base: Json | undefined,
  target: Json | undefined,
  entityUrn: string,
  auditStamp?: ChangeAuditStamp,
): ChangeEvent[] {
  if (!completed(target) || completed(base)) return [];
  const resultType = text(record(target?.['result'])?.['type']);
  const parameters: Record<string, unknown> = {
    runResult: 'COMPLETE',
    ...(text(target?.['runId']) === undefined ? {} : { runId: text(target?.['runId']) }),
    ...(text(target?.['asserteeUrn']) === undefined ? {} : { asserteeUrn: text(target?.['asserteeUrn']) }),
    ...(resultType === undefined ? {} : { assertionResult: resultType }),
  };
  return [
    {
      entityUrn,
      category: 'RUN',
      operation: 'COMPLETED',
      parameters,
      ...(auditStamp ? { auditStamp } : {}),
      semVerChange: 'NONE',
      description: `A run of ${entityUrn} completed${resultType === undefined ? '' : `: ${resultType}`}.`,
    },
  ];
}
