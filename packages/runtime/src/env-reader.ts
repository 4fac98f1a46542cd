/** Thrown at start when the environment is invalid; lists every bad variable by name. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads typed values from an environment, collecting every problem, so a deployable's config.ts can
 * validate all of its variables at once and fail fast with their names.
 */
export class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  /** Whether the variable is present but empty or blank (which every reader treats as unset). */
  setButBlank(name: string): boolean {
    const value = this.env[name];
    return value !== undefined && value.trim() === '';
  }

  requiredString(name: string): string {
    const value = this.raw(name);
    if (value === undefined) this.problems.push(`${name} is required`);
    return value ?? '';
  }

  int(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^-?\d+$/.test(value)) {
      this.problems.push(`${name} must be an integer, got "${value}"`);
      return fallback;
    }
    const n = Number(value);
    if (bounds.min !== undefined && n < bounds.min) this.problems.push(`${name} must be >= ${bounds.min}`);
    if (bounds.max !== undefined && n > bounds.max) this.problems.push(`${name} must be <= ${bounds.max}`);
    return n;
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (value === 'true' || value === '1' || value === 'yes') return true;
    if (value === 'false' || value === '0' || value === 'no') return false;
    this.problems.push(`${name} must be true or false, got "${value}"`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
    return fallback;
  }

  list(name: string): readonly string[] {
    const value = this.raw(name);
    return value === undefined
      ? []
      : value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  }

  /** Records a problem a caller found in a value it read (reported with the others by finish()). */
  invalid(name: string, message: string): void {
    this.problems.push(`${name} ${message}`);
  }

  /** Throws a ConfigError naming every problem seen so far. */
  finish(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}
