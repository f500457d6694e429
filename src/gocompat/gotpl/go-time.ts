/*
 * Go's time.Time for templates: reference-time layouts ("2006-01-02T15:04:05Z07:00") for
 * formatting and parsing, Duration.String, and zones (UTC, Local, IANA names, fixed offsets).
 * Layout handling follows Go's src/time/format.go.
 *
 * Copyright 2010 The Go Authors. All rights reserved.
 * Use of this source code is governed by a BSD-style license:
 * https://go.dev/LICENSE (BSD-3-Clause). Modifications: TypeScript port for kwokts.
 */
import { typed } from './signature.js';
import type { GoObject } from './values.js';

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_NANO = '2006-01-02T15:04:05.999999999Z07:00';

const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A time zone: UTC, the process-local zone, an IANA zone, or a fixed offset. */
export type GoLocation =
  | { readonly kind: 'utc' }
  | { readonly kind: 'local' }
  | { readonly kind: 'iana'; readonly name: string }
  | { readonly kind: 'fixed'; readonly name: string; readonly offset: number };

export const UTC: GoLocation = { kind: 'utc' };
export const LOCAL: GoLocation = { kind: 'local' };

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
const nameFormatters = new Map<string, Intl.DateTimeFormat>();

function formatter(cache: Map<string, Intl.DateTimeFormat>, zone: string | undefined, style: 'longOffset' | 'short'): Intl.DateTimeFormat {
  const key = zone ?? '';
  let f = cache.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: style, year: 'numeric' });
    cache.set(key, f);
  }
  return f;
}

function zonePart(f: Intl.DateTimeFormat, ms: number): string {
  const clamped = Math.max(-8.64e15, Math.min(8.64e15, ms));
  return f.formatToParts(clamped).find((p) => p.type === 'timeZoneName')?.value ?? 'UTC';
}

// Resolving the local zone creates a DateTimeFormat, far too slow per call; the zone is fixed at
// startup (as Go's time.Local is).
const LOCAL_ZONE_NAME: string | undefined = Intl.DateTimeFormat().resolvedOptions().timeZone;
const LOCAL_IS_UTC = LOCAL_ZONE_NAME === undefined || LOCAL_ZONE_NAME === 'UTC' || LOCAL_ZONE_NAME === 'Etc/UTC';

function localZoneName(): string | undefined {
  return LOCAL_ZONE_NAME;
}

/** time.LoadLocation: undefined for an unknown zone. */
export function loadLocation(name: string): GoLocation | undefined {
  if (name === '' || name === 'UTC') return UTC;
  if (name === 'Local') return LOCAL;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return { kind: 'iana', name };
  } catch {
    return undefined;
  }
}

/** Offset (seconds east of UTC) and abbreviation of loc at the instant ms. */
export function zoneAt(loc: GoLocation, ms: number): { name: string; offset: number } {
  switch (loc.kind) {
    case 'utc':
      return { name: 'UTC', offset: 0 };
    case 'fixed':
      return { name: loc.name, offset: loc.offset };
    case 'local':
    case 'iana': {
      if (loc.kind === 'local' && LOCAL_IS_UTC) return { name: 'UTC', offset: 0 };
      const zone = loc.kind === 'iana' ? loc.name : localZoneName();
      if (zone === undefined || zone === 'UTC' || zone === 'Etc/UTC') return { name: 'UTC', offset: 0 };
      const off = zonePart(formatter(offsetFormatters, zone, 'longOffset'), ms);
      const m = /GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?/.exec(off);
      const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0)) : 0;
      let name = zonePart(formatter(nameFormatters, zone, 'short'), ms);
      if (name.startsWith('GMT') && name !== 'GMT') name = formatOffsetName(offset);
      return { name, offset };
    }
  }
}

/** Go names zones without an abbreviation by their offset ("+09", "+0530"). */
function formatOffsetName(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  return sign + String(h).padStart(2, '0') + (m !== 0 ? String(m).padStart(2, '0') : '');
}

function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [m <= 2 ? y + 1 : y, m, d];
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  min: number;
  sec: number;
  weekday: number;
  yday: number;
}

const processStart = process.hrtime.bigint();

/** Nanoseconds in a second, as a bigint. */
const NS = 1_000_000_000n;

export class GoTime implements GoObject {
  readonly goTypeName = 'time.Time';
  readonly goKind = 'struct' as const;

  /**
   * @param sec Unix seconds (integer)
   * @param nsec nanoseconds within the second, 0..999999999
   * @param mono nanoseconds since process start when the time came from now(), as Go's monotonic reading
   */
  constructor(
    readonly sec: number,
    readonly nsec: number,
    readonly loc: GoLocation = LOCAL,
    readonly mono?: bigint,
  ) {}

  /** time.Now(); with an injected clock the result is exact to the millisecond and carries no monotonic reading. */
  static now(loc: GoLocation = LOCAL, clock?: () => Date): GoTime {
    if (clock !== undefined) return GoTime.fromDate(clock(), loc);
    // timeOrigin + now() has sub-microsecond resolution, closer to Go's nanosecond clock than Date.
    const t = performance.timeOrigin + performance.now();
    let sec = Math.floor(t / 1000);
    let nsec = Math.round((t - sec * 1000) * 1e6);
    if (nsec >= 1e9) {
      sec++;
      nsec -= 1e9;
    }
    return new GoTime(sec, nsec, loc, process.hrtime.bigint() - processStart);
  }

  static fromDate(d: Date, loc: GoLocation = LOCAL): GoTime {
    const ms = d.getTime();
    const sec = Math.floor(ms / 1000);
    return new GoTime(sec, (ms - sec * 1000) * 1_000_000, loc);
  }

  static unix(sec: number, nsec = 0, loc: GoLocation = LOCAL): GoTime {
    return new GoTime(sec, nsec, loc);
  }

  /** time.Time{}: January 1, year 1, 00:00:00 UTC. */
  static zero(): GoTime {
    return new GoTime(daysFromCivil(1, 1, 1) * 86400, 0, UTC);
  }

  get epochMs(): number {
    return this.sec * 1000 + Math.floor(this.nsec / 1_000_000);
  }

  get unixNano(): bigint {
    return BigInt(this.sec) * NS + BigInt(this.nsec);
  }

  in(loc: GoLocation): GoTime {
    return new GoTime(this.sec, this.nsec, loc, this.mono);
  }

  zone(): { name: string; offset: number } {
    return zoneAt(this.loc, this.epochMs);
  }

  fields(): Fields {
    const { offset } = this.zone();
    const local = this.sec + offset;
    const days = Math.floor(local / 86400);
    const rem = local - days * 86400;
    const [year, month, day] = civilFromDays(days);
    return {
      year,
      month,
      day,
      hour: Math.floor(rem / 3600),
      min: Math.floor((rem % 3600) / 60),
      sec: rem % 60,
      weekday: (((days + 4) % 7) + 7) % 7,
      yday: days - daysFromCivil(year, 1, 1) + 1,
    };
  }

  isZero(): boolean {
    return this.sec === daysFromCivil(1, 1, 1) * 86400 && this.nsec === 0;
  }

  addNanos(ns: bigint): GoTime {
    const total = this.unixNano + ns;
    let sec = total / NS;
    let nsec = total % NS;
    if (nsec < 0n) {
      nsec += NS;
      sec -= 1n;
    }
    return new GoTime(Number(sec), Number(nsec), this.loc, this.mono === undefined ? undefined : this.mono + ns);
  }

  format(layout: string): string {
    return formatTime(this, layout);
  }

  String(): string {
    let s = this.format('2006-01-02 15:04:05.999999999 -0700 MST');
    if (this.mono !== undefined) {
      let m = this.mono;
      const sign = m < 0n ? '-' : '+';
      if (m < 0n) m = -m;
      const m2 = m % NS;
      const m1all = m / NS;
      const m0 = m1all / NS;
      const m1 = m1all % NS;
      s += ' m=' + sign + (m0 !== 0n ? m0.toString() + m1.toString().padStart(9, '0') : m1.toString()) + '.' + m2.toString().padStart(9, '0');
    }
    return s;
  }

  goMarshalJSON(): string {
    const y = this.fields().year;
    if (y < 0 || y > 9999) throw new Error('Time.MarshalJSON: year outside of range [0,9999]');
    return `"${this.format(RFC3339_NANO)}"`;
  }

  goMethod(name: string): ((...args: unknown[]) => unknown) | undefined {
    const method = TIME_METHODS[name];
    return method === undefined ? undefined : typed(method.params, (...args: unknown[]) => method.fn(this, ...args));
  }
}

type ParamList = Parameters<typeof typed>[0];
const TIME_METHODS: Record<string, { params: ParamList; fn: (t: GoTime, ...args: unknown[]) => unknown }> = {
  Unix: { params: [], fn: (t) => BigInt(t.sec) },
  UnixMilli: { params: [], fn: (t) => BigInt(t.sec) * 1000n + BigInt(Math.floor(t.nsec / 1e6)) },
  UnixMicro: { params: [], fn: (t) => BigInt(t.sec) * 1_000_000n + BigInt(Math.floor(t.nsec / 1e3)) },
  UnixNano: { params: [], fn: (t) => t.unixNano },
  Format: { params: ['string'], fn: (t, layout) => t.format(layout as string) },
  String: { params: [], fn: (t) => t.String() },
  UTC: { params: [], fn: (t) => t.in(UTC) },
  Local: { params: [], fn: (t) => t.in(LOCAL) },
  Year: { params: [], fn: (t) => t.fields().year },
  Day: { params: [], fn: (t) => t.fields().day },
  Hour: { params: [], fn: (t) => t.fields().hour },
  Minute: { params: [], fn: (t) => t.fields().min },
  Second: { params: [], fn: (t) => t.fields().sec },
  Nanosecond: { params: [], fn: (t) => t.nsec },
  YearDay: { params: [], fn: (t) => t.fields().yday },
  IsZero: { params: [], fn: (t) => t.isZero() },
  Add: { params: ['int64'], fn: (t, d) => t.addNanos(d as bigint) },
  AddDate: {
    params: ['int', 'int', 'int'],
    fn: (t, y, m, d) => {
      const f = t.fields();
      return dateOf(f.year + (y as number), f.month + (m as number), f.day + (d as number), f.hour, f.min, f.sec, t.nsec, t.loc);
    },
  },
  Before: { params: ['time'], fn: (t, u) => t.unixNano < (u as GoTime).unixNano },
  After: { params: ['time'], fn: (t, u) => t.unixNano > (u as GoTime).unixNano },
  Equal: { params: ['time'], fn: (t, u) => t.unixNano === (u as GoTime).unixNano },
};

/** time.Date: normalises out-of-range fields and resolves the zone offset in loc. */
export function dateOf(year: number, month: number, day: number, hour: number, min: number, sec: number, nsec: number, loc: GoLocation): GoTime {
  // Normalise month into [1, 12] first, as Go does; the rest falls out of the day count.
  const m0 = month - 1;
  year += Math.floor(m0 / 12);
  month = (((m0 % 12) + 12) % 12) + 1;
  const days = daysFromCivil(year, month, 1) + day - 1;
  const localSec = days * 86400 + hour * 3600 + min * 60 + sec + Math.floor(nsec / 1e9);
  const nanos = ((nsec % 1e9) + 1e9) % 1e9;
  // Two passes find the offset in effect at the resulting instant (matters only around DST changes).
  let offset = zoneAt(loc, localSec * 1000).offset;
  offset = zoneAt(loc, (localSec - offset) * 1000).offset;
  return new GoTime(localSec - offset, nanos, loc);
}

// Layout chunks, as in Go's time/format.go.
const enum Std {
  None = 0,
  LongMonth,
  Month,
  NumMonth,
  ZeroMonth,
  LongWeekDay,
  WeekDay,
  Day,
  UnderDay,
  ZeroDay,
  UnderYearDay,
  ZeroYearDay,
  Hour,
  Hour12,
  ZeroHour12,
  Minute,
  ZeroMinute,
  Second,
  ZeroSecond,
  LongYear,
  Year,
  PM,
  pm,
  TZ,
  ISO8601TZ,
  ISO8601SecondsTZ,
  ISO8601ShortTZ,
  ISO8601ColonTZ,
  ISO8601ColonSecondsTZ,
  NumTZ,
  NumSecondsTz,
  NumShortTZ,
  NumColonTZ,
  NumColonSecondsTZ,
  FracSecond0,
  FracSecond9,
}

interface Chunk {
  prefix: string;
  std: Std;
  suffix: string;
  /** Fractional seconds: digit count and separator. */
  fracDigits?: number;
  fracSep?: string;
}

function startsWithLowerCase(s: string): boolean {
  const c = s.charCodeAt(0);
  return c >= 0x61 && c <= 0x7a;
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

function nextStdChunk(layout: string): Chunk {
  for (let i = 0; i < layout.length; i++) {
    const c = layout[i];
    const at = (s: string): boolean => layout.startsWith(s, i);
    const chunk = (std: Std, len: number): Chunk => ({ prefix: layout.slice(0, i), std, suffix: layout.slice(i + len) });
    switch (c) {
      case 'J':
        if (at('Jan')) {
          if (at('January')) return chunk(Std.LongMonth, 7);
          if (!startsWithLowerCase(layout.slice(i + 3))) return chunk(Std.Month, 3);
        }
        break;
      case 'M':
        if (at('Mon')) {
          if (at('Monday')) return chunk(Std.LongWeekDay, 6);
          if (!startsWithLowerCase(layout.slice(i + 3))) return chunk(Std.WeekDay, 3);
        }
        if (at('MST')) return chunk(Std.TZ, 3);
        break;
      case '0': {
        const d = layout[i + 1];
        if (d !== undefined && d >= '1' && d <= '6') {
          const map = [Std.ZeroMonth, Std.ZeroDay, Std.ZeroHour12, Std.ZeroMinute, Std.ZeroSecond, Std.Year];
          return chunk(map[Number(d) - 1] as Std, 2);
        }
        if (at('002')) return chunk(Std.ZeroYearDay, 3);
        break;
      }
      case '1':
        if (at('15')) return chunk(Std.Hour, 2);
        return chunk(Std.NumMonth, 1);
      case '2':
        if (at('2006')) return chunk(Std.LongYear, 4);
        return chunk(Std.Day, 1);
      case '_':
        if (layout[i + 1] === '2') {
          if (layout.startsWith('2006', i + 1)) return { prefix: layout.slice(0, i + 1), std: Std.LongYear, suffix: layout.slice(i + 5) };
          return chunk(Std.UnderDay, 2);
        }
        if (at('__2')) return chunk(Std.UnderYearDay, 3);
        break;
      case '3':
        return chunk(Std.Hour12, 1);
      case '4':
        return chunk(Std.Minute, 1);
      case '5':
        return chunk(Std.Second, 1);
      case 'P':
        if (at('PM')) return chunk(Std.PM, 2);
        break;
      case 'p':
        if (at('pm')) return chunk(Std.pm, 2);
        break;
      case '-':
        if (at('-070000')) return chunk(Std.NumSecondsTz, 7);
        if (at('-07:00:00')) return chunk(Std.NumColonSecondsTZ, 9);
        if (at('-0700')) return chunk(Std.NumTZ, 5);
        if (at('-07:00')) return chunk(Std.NumColonTZ, 6);
        if (at('-07')) return chunk(Std.NumShortTZ, 3);
        break;
      case 'Z':
        if (at('Z070000')) return chunk(Std.ISO8601SecondsTZ, 7);
        if (at('Z07:00:00')) return chunk(Std.ISO8601ColonSecondsTZ, 9);
        if (at('Z0700')) return chunk(Std.ISO8601TZ, 5);
        if (at('Z07:00')) return chunk(Std.ISO8601ColonTZ, 6);
        if (at('Z07')) return chunk(Std.ISO8601ShortTZ, 3);
        break;
      case '.':
      case ',': {
        const ch = layout[i + 1];
        if (ch === '0' || ch === '9') {
          let j = i + 1;
          while (j < layout.length && layout[j] === ch) j++;
          if (!isDigitAt(layout, j)) {
            return {
              prefix: layout.slice(0, i),
              std: ch === '0' ? Std.FracSecond0 : Std.FracSecond9,
              suffix: layout.slice(j),
              fracDigits: j - (i + 1),
              fracSep: c,
            };
          }
        }
        break;
      }
    }
  }
  return { prefix: layout, std: Std.None, suffix: '' };
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? '-' + s : s;
}

const layoutCache = new Map<string, Chunk[]>();

/** A layout split into chunks once; formatting the same layout (RFC 3339 for Now) is hot. */
function layoutChunks(layout: string): Chunk[] {
  let chunks = layoutCache.get(layout);
  if (chunks === undefined) {
    chunks = [];
    for (let rest = layout; ; ) {
      const c = nextStdChunk(rest);
      chunks.push(c);
      if (c.std === Std.None) break;
      rest = c.suffix;
      if (rest === '') break;
    }
    if (layoutCache.size < 256) layoutCache.set(layout, chunks);
  }
  return chunks;
}

/** Time.Format. */
export function formatTime(t: GoTime, layout: string): string {
  const { name, offset } = t.zone();
  const f = t.fields();
  let out = '';
  for (const c of layoutChunks(layout)) {
    out += c.prefix;
    if (c.std === Std.None) break;
    switch (c.std) {
      case Std.Year:
        out += pad(((f.year % 100) + 100) % 100, 2);
        break;
      case Std.LongYear:
        out += pad(f.year, 4);
        break;
      case Std.Month:
        out += (LONG_MONTHS[f.month - 1] as string).slice(0, 3);
        break;
      case Std.LongMonth:
        out += LONG_MONTHS[f.month - 1] as string;
        break;
      case Std.NumMonth:
        out += String(f.month);
        break;
      case Std.ZeroMonth:
        out += pad(f.month, 2);
        break;
      case Std.WeekDay:
        out += (LONG_DAYS[f.weekday] as string).slice(0, 3);
        break;
      case Std.LongWeekDay:
        out += LONG_DAYS[f.weekday] as string;
        break;
      case Std.Day:
        out += String(f.day);
        break;
      case Std.UnderDay:
        out += f.day < 10 ? ' ' + String(f.day) : String(f.day);
        break;
      case Std.ZeroDay:
        out += pad(f.day, 2);
        break;
      case Std.UnderYearDay:
        out += String(f.yday).padStart(3, ' ');
        break;
      case Std.ZeroYearDay:
        out += pad(f.yday, 3);
        break;
      case Std.Hour:
        out += pad(f.hour, 2);
        break;
      case Std.Hour12:
        out += String(f.hour % 12 === 0 ? 12 : f.hour % 12);
        break;
      case Std.ZeroHour12:
        out += pad(f.hour % 12 === 0 ? 12 : f.hour % 12, 2);
        break;
      case Std.Minute:
        out += String(f.min);
        break;
      case Std.ZeroMinute:
        out += pad(f.min, 2);
        break;
      case Std.Second:
        out += String(f.sec);
        break;
      case Std.ZeroSecond:
        out += pad(f.sec, 2);
        break;
      case Std.PM:
        out += f.hour >= 12 ? 'PM' : 'AM';
        break;
      case Std.pm:
        out += f.hour >= 12 ? 'pm' : 'am';
        break;
      case Std.TZ:
        if (name !== '') {
          out += name;
        } else {
          const zone = Math.trunc(offset / 60);
          out += (zone < 0 ? '-' : '+') + pad(Math.floor(Math.abs(zone) / 60), 2) + pad(Math.abs(zone) % 60, 2);
        }
        break;
      case Std.FracSecond0:
      case Std.FracSecond9:
        out += formatNano(t.nsec, c.std === Std.FracSecond9, c.fracDigits as number, c.fracSep as string);
        break;
      default:
        out += formatZoneOffset(c.std, offset);
    }
  }
  return out;
}

function formatNano(nsec: number, trim: boolean, n: number, sep: string): string {
  if (trim && (n === 0 || nsec === 0)) return '';
  let s = sep + String(nsec).padStart(9, '0').slice(0, n);
  if (trim) {
    s = s.replace(/0+$/, '');
    if (s === sep) s = '';
  }
  return s;
}

function formatZoneOffset(std: Std, offset: number): string {
  const iso = std === Std.ISO8601TZ || std === Std.ISO8601ColonTZ || std === Std.ISO8601SecondsTZ || std === Std.ISO8601ShortTZ || std === Std.ISO8601ColonSecondsTZ;
  if (offset === 0 && iso) return 'Z';
  let zone = Math.trunc(offset / 60);
  let absoffset = offset;
  let out: string;
  if (zone < 0) {
    out = '-';
    zone = -zone;
    absoffset = -absoffset;
  } else {
    out = '+';
  }
  out += pad(Math.floor(zone / 60), 2);
  const colon = std === Std.ISO8601ColonTZ || std === Std.NumColonTZ || std === Std.ISO8601ColonSecondsTZ || std === Std.NumColonSecondsTZ;
  if (colon) out += ':';
  if (std !== Std.NumShortTZ && std !== Std.ISO8601ShortTZ) out += pad(zone % 60, 2);
  if (std === Std.ISO8601SecondsTZ || std === Std.NumSecondsTz || std === Std.NumColonSecondsTZ || std === Std.ISO8601ColonSecondsTZ) {
    if (std === Std.NumColonSecondsTZ || std === Std.ISO8601ColonSecondsTZ) out += ':';
    out += pad(absoffset % 60, 2);
  }
  return out;
}

export class TimeParseError extends Error {}

function parseError(layout: string, value: string, layoutElem: string, valueElem: string, message = ''): TimeParseError {
  const q = (s: string): string => JSON.stringify(s);
  if (message !== '') return new TimeParseError(`parsing time ${q(value)}${message}`);
  return new TimeParseError(`parsing time ${q(value)} as ${q(layout)}: cannot parse ${q(valueElem)} as ${q(layoutElem)}`);
}

function lookupName(table: readonly string[], value: string, len?: number): [number, string] | undefined {
  for (let i = 0; i < table.length; i++) {
    const v = len === undefined ? (table[i] as string) : (table[i] as string).slice(0, len);
    if (value.length >= v.length && value.slice(0, v.length).toLowerCase() === v.toLowerCase()) return [i, value.slice(v.length)];
  }
  return undefined;
}

/** Reads 1-2 digits (exactly 2 when fixed), as Go's getnum. */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  if (!isDigitAt(s, 1)) {
    if (fixed) return undefined;
    return [s.charCodeAt(0) - 0x30, s.slice(1)];
  }
  return [(s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), s.slice(2)];
}

function getnum3(s: string, fixed: boolean): [number, string] | undefined {
  let n = 0;
  let i = 0;
  for (; i < 3 && isDigitAt(s, i); i++) n = n * 10 + (s.charCodeAt(i) - 0x30);
  if (i === 0 || (fixed && i !== 3)) return undefined;
  return [n, s.slice(i)];
}

/** Go's skip: match the layout's literal text, letting a space in the layout match a run of spaces. */
function skip(value: string, prefix: string): string | undefined {
  while (prefix.length > 0) {
    if (prefix[0] === ' ') {
      if (value.length > 0 && value[0] !== ' ') return undefined;
      prefix = prefix.replace(/^ +/, '');
      value = value.replace(/^ +/, '');
      continue;
    }
    if (value.length === 0 || value[0] !== prefix[0]) return undefined;
    prefix = prefix.slice(1);
    value = value.slice(1);
  }
  return value;
}

/** time.ParseInLocation. Throws TimeParseError with Go's message. */
export function parseTime(layout: string, value: string, defaultLoc: GoLocation): GoTime {
  const alayout = layout;
  const avalue = value;
  let year = 0;
  let month = -1;
  let day = -1;
  let yday = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let pmSet = false;
  let amSet = false;
  let zoneOffset: number | undefined;
  let zoneName = '';
  for (;;) {
    const c = nextStdChunk(layout);
    const stdstr = layout.slice(c.prefix.length, layout.length - c.suffix.length);
    const rest = skip(value, c.prefix);
    if (rest === undefined) throw parseError(alayout, avalue, c.prefix, value);
    value = rest;
    if (c.std === Std.None) {
      if (value.length !== 0) throw parseError(alayout, avalue, '', value, `: extra text: ${JSON.stringify(value)}`);
      break;
    }
    layout = c.suffix;
    const hold = value;
    let ok = true;
    const num = (r: [number, string] | undefined): number => {
      if (r === undefined) {
        ok = false;
        return 0;
      }
      value = r[1];
      return r[0];
    };
    switch (c.std) {
      case Std.Year: {
        if (value.length < 2 || !isDigitAt(value, 0) || !isDigitAt(value, 1)) {
          ok = false;
          break;
        }
        year = Number(value.slice(0, 2));
        value = value.slice(2);
        year += year >= 69 ? 1900 : 2000;
        break;
      }
      case Std.LongYear:
        if (value.length < 4 || !/^\d{4}/.test(value)) {
          ok = false;
          break;
        }
        year = Number(value.slice(0, 4));
        value = value.slice(4);
        break;
      case Std.Month:
      case Std.LongMonth: {
        const r = lookupName(LONG_MONTHS, value, c.std === Std.Month ? 3 : undefined);
        if (r === undefined) ok = false;
        else [month, value] = [r[0] + 1, r[1]];
        break;
      }
      case Std.NumMonth:
      case Std.ZeroMonth:
        month = num(getnum(value, c.std === Std.ZeroMonth));
        if (ok && (month <= 0 || month > 12)) throw parseError(alayout, avalue, '', '', ': month out of range');
        break;
      case Std.WeekDay:
      case Std.LongWeekDay: {
        const r = lookupName(LONG_DAYS, value, c.std === Std.WeekDay ? 3 : undefined);
        if (r === undefined) ok = false;
        else value = r[1];
        break;
      }
      case Std.Day:
      case Std.UnderDay:
      case Std.ZeroDay:
        if (c.std === Std.UnderDay && value[0] === ' ') value = value.slice(1);
        day = num(getnum(value, c.std === Std.ZeroDay));
        break;
      case Std.UnderYearDay:
      case Std.ZeroYearDay:
        for (let i = 0; i < 2; i++) if (c.std === Std.UnderYearDay && value[0] === ' ') value = value.slice(1);
        yday = num(getnum3(value, c.std === Std.ZeroYearDay));
        break;
      case Std.Hour:
        hour = num(getnum(value, false));
        if (hour < 0 || hour >= 24) ok = false;
        break;
      case Std.Hour12:
      case Std.ZeroHour12:
        hour = num(getnum(value, c.std === Std.ZeroHour12));
        if (hour < 0 || hour > 12) ok = false;
        break;
      case Std.Minute:
      case Std.ZeroMinute:
        min = num(getnum(value, c.std === Std.ZeroMinute));
        if (min < 0 || min >= 60) ok = false;
        break;
      case Std.Second:
      case Std.ZeroSecond: {
        sec = num(getnum(value, c.std === Std.ZeroSecond));
        if (sec < 0 || sec >= 60) {
          ok = false;
          break;
        }
        // Fractional seconds in the value but not the layout.
        if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigitAt(value, 1)) {
          const next = nextStdChunk(layout);
          if (next.std === Std.FracSecond0 || next.std === Std.FracSecond9) break;
          let n = 1;
          while (n < value.length && isDigitAt(value, n)) n++;
          nsec = parseNanos(value.slice(1, n));
          value = value.slice(n);
        }
        break;
      }
      case Std.PM:
      case Std.pm: {
        const p = value.slice(0, 2);
        const want = c.std === Std.PM ? ['PM', 'AM'] : ['pm', 'am'];
        if (p === want[0]) pmSet = true;
        else if (p === want[1]) amSet = true;
        else ok = false;
        value = value.slice(2);
        break;
      }
      case Std.TZ: {
        if (value.startsWith('UTC')) {
          zoneName = 'UTC';
          zoneOffset = 0;
          value = value.slice(3);
          break;
        }
        const m = /^(GMT[+-]\d{1,2}|[A-Z]{3,5}|ChST|MeST)/.exec(value);
        if (m === null) {
          ok = false;
          break;
        }
        zoneName = m[1] as string;
        value = value.slice(zoneName.length);
        break;
      }
      case Std.FracSecond0: {
        const ndigit = 1 + (c.fracDigits as number);
        if (value.length < ndigit || (value[0] !== '.' && value[0] !== ',') || !/^\d+$/.test(value.slice(1, ndigit))) {
          ok = false;
          break;
        }
        nsec = parseNanos(value.slice(1, ndigit));
        value = value.slice(ndigit);
        break;
      }
      case Std.FracSecond9: {
        if (value.length < 2 || (value[0] !== '.' && value[0] !== ',') || !isDigitAt(value, 1)) break;
        let n = 1;
        while (n < 10 && n < value.length && isDigitAt(value, n)) n++;
        nsec = parseNanos(value.slice(1, n));
        value = value.slice(n);
        break;
      }
      default: {
        const iso = c.std === Std.ISO8601TZ || c.std === Std.ISO8601ColonTZ || c.std === Std.ISO8601SecondsTZ || c.std === Std.ISO8601ShortTZ || c.std === Std.ISO8601ColonSecondsTZ;
        if (iso && value[0] === 'Z') {
          value = value.slice(1);
          zoneOffset = 0;
          zoneName = 'UTC';
          break;
        }
        const m = /^([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?/.exec(value);
        if (m === null) {
          ok = false;
          break;
        }
        const sign = m[1] === '-' ? -1 : 1;
        zoneOffset = sign * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0));
        value = value.slice((m[0] as string).length);
      }
    }
    if (!ok) throw parseError(alayout, avalue, stdstr, hold);
  }
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;
  if (yday >= 0) {
    const days = yday - 1;
    const t = civilFromDays(daysFromCivil(year, 1, 1) + days);
    if (month < 0) [month, day] = [t[1], t[2]];
  }
  if (month < 0) month = 1;
  if (day < 0) day = 1;
  if (day < 1 || day > daysIn(month, year)) throw parseError(alayout, avalue, '', '', ': day out of range');
  if (zoneOffset !== undefined) {
    const base = dateOf(year, month, day, hour, min, sec, nsec, UTC);
    const t = new GoTime(base.sec - zoneOffset, base.nsec, UTC);
    const local = zoneAt(defaultLoc, t.epochMs);
    if (defaultLoc.kind !== 'utc' && local.offset === zoneOffset && (zoneName === '' || zoneName === local.name)) return t.in(defaultLoc);
    if (zoneOffset === 0 && zoneName === 'UTC') return t.in(UTC);
    return t.in({ kind: 'fixed', name: zoneName, offset: zoneOffset });
  }
  if (zoneName !== '') {
    const base = dateOf(year, month, day, hour, min, sec, nsec, UTC);
    const local = zoneAt(defaultLoc, base.epochMs);
    if (local.name === zoneName) return dateOf(year, month, day, hour, min, sec, nsec, defaultLoc);
    const gmt = /^GMT([+-]\d{1,2})$/.exec(zoneName);
    const offset = gmt ? Number(gmt[1]) * 3600 : 0;
    return new GoTime(base.sec - offset, base.nsec, { kind: 'fixed', name: zoneName, offset });
  }
  return dateOf(year, month, day, hour, min, sec, nsec, defaultLoc);
}

function parseNanos(digits: string): number {
  return Number(digits.slice(0, 9).padEnd(9, '0'));
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
}

const SECOND = 1_000_000_000n;

/** time.Duration.String. */
export function formatDuration(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < SECOND) {
    let unit: string;
    let prec: number;
    if (u < 1000n) {
      unit = 'ns';
      prec = 0;
    } else if (u < 1_000_000n) {
      unit = 'µs';
      prec = 3;
    } else {
      unit = 'ms';
      prec = 6;
    }
    const [frac, rest] = fmtFrac(u, prec);
    out = rest.toString() + frac + unit;
  } else {
    const [frac, secs] = fmtFrac(u, 9);
    u = secs;
    out = (u % 60n).toString() + frac + 's';
    u /= 60n;
    if (u > 0n) {
      out = (u % 60n).toString() + 'm' + out;
      u /= 60n;
      if (u > 0n) out = u.toString() + 'h' + out;
    }
  }
  return neg ? '-' + out : out;
}

function fmtFrac(v: bigint, prec: number): [string, bigint] {
  let s = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print = print || digit !== 0n;
    if (print) s = digit.toString() + s;
    v /= 10n;
  }
  return [print ? '.' + s : '', v];
}

/** time.Duration.Round. */
export function roundDuration(d: bigint, m: bigint): bigint {
  if (m <= 0n) return d;
  let r = d % m;
  if (d < 0n) {
    r = -r;
    if (r + r < m) return d + r;
    return d - m + r;
  }
  if (r + r < m) return d - r;
  return d + m - r;
}
