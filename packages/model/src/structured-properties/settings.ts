/**
 * The structured-property settings of the write path (and of the indexer, for oversize values), as the
 * ecosystem names them (application.yaml `structuredProperties.*`).
 */
export interface StructuredPropertySettings {
  /**
   * STRUCTURED_PROPERTIES_DROP_MISSING_PROPERTY_VALUES_WITH_WARNING (default true): assignments of
   * properties that have no definition are dropped, with a warning, and the write goes on with the
   * rest; a write whose assignments are all such orphans fails. False: any orphan fails the write.
   */
  readonly dropMissingPropertyValuesWithWarning: boolean;
  /**
   * STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH (default 32766, Lucene's keyword term limit): the most
   * UTF-8 bytes a string-backed value (string, rich_text, date, urn) may have.
   */
  readonly keywordMaxLength: number;
  /**
   * STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX (default false): when true, a value
   * over keywordMaxLength is stored and left out of the search index instead of being rejected.
   */
  readonly dropOversizedKeywordValuesFromIndex: boolean;
}

export const STRUCTURED_PROPERTY_ENV = {
  dropMissingPropertyValuesWithWarning: 'STRUCTURED_PROPERTIES_DROP_MISSING_PROPERTY_VALUES_WITH_WARNING',
  keywordMaxLength: 'STRUCTURED_PROPERTIES_KEYWORD_MAX_LENGTH',
  dropOversizedKeywordValuesFromIndex: 'STRUCTURED_PROPERTIES_DROP_OVERSIZED_KEYWORD_VALUES_FROM_INDEX',
} as const;

/** Lucene's maximum term length in bytes, the ecosystem's ESUtils.KEYWORD_MAXLENGTH. */
export const KEYWORD_MAX_LENGTH = 32766;

export const DEFAULT_STRUCTURED_PROPERTY_SETTINGS: StructuredPropertySettings = Object.freeze({
  dropMissingPropertyValuesWithWarning: true,
  keywordMaxLength: KEYWORD_MAX_LENGTH,
  dropOversizedKeywordValuesFromIndex: false,
});

/** What reading the settings needs of an environment reader (the runtime's EnvReader fits). */
export interface SettingsEnv {
  bool(name: string, fallback: boolean): boolean;
  int(name: string, fallback: number, bounds?: { min?: number; max?: number }): number;
}

/**
 * Reads the settings from the environment; problems (a non-boolean, a length below 1) are the
 * reader's to collect and report, as every deployable's config does at start.
 */
export function readStructuredPropertySettings(env: SettingsEnv): StructuredPropertySettings {
  return Object.freeze({
    dropMissingPropertyValuesWithWarning: env.bool(
      STRUCTURED_PROPERTY_ENV.dropMissingPropertyValuesWithWarning,
      DEFAULT_STRUCTURED_PROPERTY_SETTINGS.dropMissingPropertyValuesWithWarning,
    ),
    keywordMaxLength: env.int(STRUCTURED_PROPERTY_ENV.keywordMaxLength, KEYWORD_MAX_LENGTH, {
      min: 1,
      max: 2 ** 31 - 1,
    }),
    dropOversizedKeywordValuesFromIndex: env.bool(
      STRUCTURED_PROPERTY_ENV.dropOversizedKeywordValuesFromIndex,
      DEFAULT_STRUCTURED_PROPERTY_SETTINGS.dropOversizedKeywordValuesFromIndex,
    ),
  });
}
