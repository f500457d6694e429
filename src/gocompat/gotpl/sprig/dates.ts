/**
 * sprig v3.3.0 date functions (date.go). Layouts are Go reference-time layouts; a date argument
 * may be a time.Time or Unix seconds as int/int64, and anything else means "now", as in sprig.
 */
import { FuncError } from '../errors.js';
import {
  GoTime,
  LOCAL,
  UTC,
  formatDuration,
  loadLocation,
  parseTime,
  roundDuration,
  TimeParseError,
} from '../go-time.js';
import { parseGoDuration } from '../../go-duration.js';
import { typed, type FuncMap } from '../signature.js';

const SECOND = 1_000_000_000n;

export interface DateOptions {
  /** Clock for now() and for sprig's "default to now" cases. */
  now?: () => Date;
}

export function sprigDates(options: DateOptions = {}): FuncMap {
  const clock = options.now;
  const now = (): GoTime => GoTime.now(LOCAL, clock);

  const asTime = (date: unknown): GoTime => {
    if (date instanceof GoTime) return date;
    if (typeof date === 'bigint') return GoTime.unix(Number(date));
    if (typeof date === 'number' && Number.isInteger(date)) return GoTime.unix(date);
    return now();
  };

  const dateInZone = (layout: string, date: unknown, zone: string): string => {
    const loc = loadLocation(zone) ?? UTC;
    return asTime(date).in(loc).format(layout);
  };

  const since = (t: GoTime): bigint => now().unixNano - t.unixNano;

  const mustToDate = (layout: unknown, str: unknown): GoTime => {
    try {
      return parseTime(layout as string, str as string, LOCAL);
    } catch (e) {
      if (e instanceof TimeParseError) throw new FuncError(e.message);
      throw e;
    }
  };

  const mustDateModify = (fmt: unknown, date: unknown): GoTime => {
    const d = parseGoDuration(fmt as string);
    if (d === undefined) throw new FuncError(`time: invalid duration ${JSON.stringify(fmt)}`);
    return (date as GoTime).addNanos(d);
  };

  return {
    now: typed([], () => now()),
    date: typed(['string', 'any'], (layout, date) => dateInZone(layout as string, date, 'Local')),
    dateInZone: typed(['string', 'any', 'string'], (layout, date, zone) => dateInZone(layout as string, date, zone as string)),
    date_in_zone: typed(['string', 'any', 'string'], (layout, date, zone) => dateInZone(layout as string, date, zone as string)),
    htmlDate: typed(['any'], (date) => dateInZone('2006-01-02', date, 'Local')),
    htmlDateInZone: typed(['any', 'string'], (date, zone) => dateInZone('2006-01-02', date, zone as string)),
    dateModify: typed(['string', 'time'], (fmt, date) => {
      const d = parseGoDuration(fmt as string);
      return d === undefined ? date : (date as GoTime).addNanos(d);
    }),
    date_modify: typed(['string', 'time'], (fmt, date) => {
      const d = parseGoDuration(fmt as string);
      return d === undefined ? date : (date as GoTime).addNanos(d);
    }),
    mustDateModify: typed(['string', 'time'], mustDateModify),
    must_date_modify: typed(['string', 'time'], mustDateModify),
    ago: typed(['any'], (date) => {
      const t = date instanceof GoTime || typeof date === 'bigint' || (typeof date === 'number' && Number.isInteger(date)) ? asTime(date) : now();
      return formatDuration(roundDuration(since(t), SECOND));
    }),
    duration: typed(['any'], (sec) => {
      let n = 0n;
      if (typeof sec === 'string') n = /^[+-]?\d+$/.test(sec) ? BigInt(sec) : 0n;
      else if (typeof sec === 'bigint') n = sec;
      return formatDuration(BigInt.asIntN(64, n * SECOND));
    }),
    durationRound: typed(['any'], (duration) => {
      let d = 0n;
      if (typeof duration === 'string') d = parseGoDuration(duration) ?? 0n;
      else if (typeof duration === 'bigint') d = duration;
      else if (duration instanceof GoTime) d = since(duration);
      const u = d < 0n ? -d : d;
      const hour = 3600n * SECOND;
      const day = 24n * hour;
      const units: [bigint, string][] = [
        [365n * day, 'y'],
        [30n * day, 'mo'],
        [day, 'd'],
        [hour, 'h'],
        [60n * SECOND, 'm'],
        [SECOND, 's'],
      ];
      for (const [size, suffix] of units) if (u > size) return `${u / size}${suffix}`;
      return '0s';
    }),
    toDate: typed(['string', 'string'], (layout, str) => {
      try {
        return parseTime(layout as string, str as string, LOCAL);
      } catch {
        return GoTime.zero();
      }
    }),
    mustToDate: typed(['string', 'string'], mustToDate),
    unixEpoch: typed(['time'], (date) => String((date as GoTime).sec)),
  };
}
