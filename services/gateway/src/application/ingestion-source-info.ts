import { ValidationError } from '@catalog/model';

/**
 * Ingestion sources as clients write and read them, and the stored `dataHubIngestionSourceInfo` aspect,
 * both ways. The aspect keeps the ecosystem's wire form, so the ecosystem's scheduler and CLI read what
 * GraphQL writes.
 */

type Json = Readonly<Record<string, unknown>>;

export interface StringMapEntryInput {
  readonly key: string;
  readonly value?: string | null;
}

/** GraphQL `UpdateIngestionSourceInput`. */
export interface UpdateIngestionSourceInput {
  readonly name: string;
  readonly type: string;
  /** Accepted, as the ecosystem accepts it, but the aspect has no field for it: never stored. */
  readonly description?: string | null;
  readonly schedule?: { readonly interval: string; readonly timezone: string } | null;
  readonly config: {
    readonly recipe: string;
    readonly version?: string | null;
    readonly executorId: string;
    readonly debugMode?: boolean | null;
    readonly extraArgs?: readonly StringMapEntryInput[] | null;
  };
}

/** One cron field: `*`, numbers, names (MON, JAN), ranges, lists and steps, or `?` (day fields). */
const CRON_FIELD = /^(\?|[*A-Za-z0-9]+(-[A-Za-z0-9]+)?(\/\d+)?)(,[*A-Za-z0-9]+(-[A-Za-z0-9]+)?(\/\d+)?)*$/;

/** Whether a schedule interval looks like a five-field cron expression (a basic check, not a parser). */
export function isCronInterval(interval: string): boolean {
  const fields = interval.trim().split(/\s+/);
  return fields.length === 5 && fields.every((f) => CRON_FIELD.test(f));
}

/**
 * The stored aspect of a create or update. Refuses (400) what the ecosystem's scheduler could never
 * run: a blank name or type, a recipe that is not a JSON object, an interval that is not five cron
 * fields, a blank timezone or executor id. `kept` is the stored aspect of an update: the fields GraphQL
 * cannot set (platform, source) stay as they were.
 */
export function ingestionSourceInfoOf(
  input: UpdateIngestionSourceInput,
  kept?: Json,
): Record<string, unknown> {
  const name = nonBlank(input.name, 'name');
  const type = nonBlank(input.type, 'type');
  const { config, schedule } = input;
  let recipe: unknown;
  try {
    recipe = JSON.parse(config.recipe);
  } catch {
    throw new ValidationError('config.recipe must be a JSON string of an object');
  }
  if (typeof recipe !== 'object' || recipe === null || Array.isArray(recipe))
    throw new ValidationError('config.recipe must be a JSON string of an object');
  if (schedule !== null && schedule !== undefined) {
    if (!isCronInterval(schedule.interval))
      throw new ValidationError(
        `schedule.interval must be a cron expression of 5 fields, got ${JSON.stringify(schedule.interval)}`,
      );
    nonBlank(schedule.timezone, 'schedule.timezone');
  }
  const extraArgs = config.extraArgs;
  return {
    name,
    type,
    ...(typeof kept?.['platform'] === 'string' ? { platform: kept['platform'] } : {}),
    ...(schedule === null || schedule === undefined
      ? {}
      : { schedule: { interval: schedule.interval.trim(), timezone: schedule.timezone.trim() } }),
    config: {
      recipe: config.recipe,
      ...(config.version === null || config.version === undefined ? {} : { version: config.version }),
      executorId: nonBlank(config.executorId, 'config.executorId'),
      ...(config.debugMode === null || config.debugMode === undefined ? {} : { debugMode: config.debugMode }),
      ...(extraArgs === null || extraArgs === undefined
        ? {}
        : {
            extraArgs: Object.fromEntries(
              extraArgs.map((e, i) => [nonBlank(e.key, `config.extraArgs[${i}].key`), e.value ?? '']),
            ),
          }),
    },
    ...(record(kept?.['source']) === undefined ? {} : { source: kept?.['source'] }),
  };
}

/** The GraphQL `IngestionSource` fields read from a stored aspect (urn and type come from elsewhere). */
export function ingestionSourceFields(info: Json) {
  const schedule = record(info['schedule']);
  const config = record(info['config']) ?? {};
  const extraArgs = record(config['extraArgs']);
  return {
    name: str(info['name']) ?? '',
    sourceType: str(info['type']) ?? '',
    platform: str(info['platform']),
    schedule:
      schedule === undefined || typeof schedule['interval'] !== 'string'
        ? null
        : { interval: schedule['interval'], timezone: str(schedule['timezone']) },
    config: {
      recipe: str(config['recipe']) ?? '{}',
      // The ecosystem's default executor, as its mapper answers for a source stored without one.
      executorId: str(config['executorId']) ?? 'default',
      version: str(config['version']),
      debugMode: typeof config['debugMode'] === 'boolean' ? config['debugMode'] : null,
      extraArgs:
        extraArgs === undefined
          ? null
          : Object.entries(extraArgs).map(([key, value]) => ({ key, value: str(value) })),
    },
  };
}

function nonBlank(value: string, where: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new ValidationError(`${where} must not be empty`);
  return trimmed;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}
