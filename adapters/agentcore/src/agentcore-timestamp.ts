const millisecondsPerDay = 86_400_000;
/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the range `toISOString` writes with four year digits. */
const earliest = -62_167_219_200_000;
const latest = 253_402_300_800_000;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * `date.toISOString()`, computed from the epoch milliseconds with integer arithmetic
 * (Howard Hinnant's days-to-civil). Every record of a page is stamped, and the built-in
 * formatter was a noticeable share of reading one; `agentcore-timestamp.test.ts` holds the
 * two to the same output. Dates outside years 0 to 9999 take the built-in path.
 */
export function toIsoTimestamp(date: Date): string {
  const time = date.getTime();
  if (!(time >= earliest && time < latest)) return date.toISOString();
  const days = Math.floor(time / millisecondsPerDay);
  const withinDay = time - days * millisecondsPerDay;
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(withinDay / 3_600_000);
  const minutes = Math.floor((withinDay % 3_600_000) / 60_000);
  const seconds = Math.floor((withinDay % 60_000) / 1000);
  const milliseconds = withinDay % 1000;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(milliseconds, 3)}Z`;
}
