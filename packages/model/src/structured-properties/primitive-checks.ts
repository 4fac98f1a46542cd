import { isUrn } from '../urn.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A date value: exactly `YYYY-MM-DD`, a real calendar day, within 1000-01-01..9999-12-31 (the range of
 * the ecosystem's StructuredPropertyUtils.isValidDate). Stricter than the ecosystem's java.sql.Date
 * parse, which rolls an impossible day over (2024-02-30 reads as 2024-03-01): such a day is refused.
 */
export function isValidDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

// Java's Double.parseDouble grammar (FloatingDecimal): optional sign, NaN, Infinity, a decimal with
// an optional exponent and an optional f/F/d/D suffix, or a hexadecimal float with a binary exponent.
const DECIMAL = /^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)$/;
const HEX = /^[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?$/;

/**
 * A number given as a string, as the ecosystem accepts it for a number property (Double.parseDouble):
 * surrounding whitespace and control characters are ignored, as Java's trim() ignores them.
 */
export function isNumericString(text: string): boolean {
  const trimmed = text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  return DECIMAL.test(trimmed) || HEX.test(trimmed);
}

/** A value an urn property accepts: a string that parses as an urn. */
export function isUrnValue(text: string): boolean {
  return isUrn(text);
}

/** The number of bytes of the text in UTF-8. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
