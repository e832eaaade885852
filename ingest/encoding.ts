// Turns a data file's bytes into text, or says plainly what is wrong with its encoding. Data files are
// UTF-8 with LF or CRLF line ends; a UTF-8 byte order mark at the start (as Excel writes it) is dropped.
// Characters no one can see (controls, a BOM in the middle) would make two figures or names that look
// the same differ, so they are refused where they are.
import { isUtf8 } from 'node:buffer';
import type { Problems } from './errors.ts';

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16_BOMS = [
  [0xff, 0xfe],
  [0xfe, 0xff],
];
/** Controls other than TAB, LF and the CR of a CRLF; C1 controls; a BOM past the start; U+FFFD. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const FORBIDDEN = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\uFEFF\uFFFD]|\r(?!\n)/;

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The text of `bytes`, or null after adding a problem at the first byte that is not right. */
export function decodeText(file: string, bytes: Uint8Array, problems: Problems): string | null {
  if (UTF16_BOMS.some((bom) => startsWith(bytes, bom))) {
    problems.add(file, 1, 1, 'the file is saved as UTF-16 (it starts with a UTF-16 byte order mark): save it as UTF-8');
    return null;
  }
  const body = startsWith(bytes, UTF8_BOM) ? bytes.subarray(UTF8_BOM.length) : bytes;
  if (!isUtf8(body)) {
    const bad = firstInvalidByte(body);
    const { line, column } = position(Buffer.from(body.subarray(0, bad)).toString('utf8'), Infinity);
    const hex = body[bad].toString(16).toUpperCase().padStart(2, '0');
    problems.add(
      file,
      line,
      column,
      `not valid UTF-8: byte 0x${hex} here is not part of a UTF-8 character (a Latin-1 or Windows-1252 file ` +
        `looks like this): save the file as UTF-8`,
    );
    return null;
  }
  const text = Buffer.from(body).toString('utf8');
  const found = FORBIDDEN.exec(text);
  if (found) {
    const { line, column } = position(text, found.index);
    problems.add(file, line, column, forbiddenMessage(found[0]));
    return null;
  }
  return text;
}

function forbiddenMessage(c: string): string {
  if (c === '\0')
    return 'a NUL byte: this is not a UTF-8 text file (UTF-16 without a byte order mark, or binary?): save it as UTF-8';
  if (c === '\r') return 'a carriage return (CR) that does not end a line: line ends must be LF or CRLF';
  if (c === '\uFEFF')
    return 'a byte order mark (U+FEFF) inside the file: only the start of a file may have one; remove it';
  if (c === '\uFFFD')
    return (
      'a replacement character (U+FFFD): the text was damaged by a wrong conversion before it was saved; ' + 'retype it'
    );
  return (
    `control character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}: data files hold only ` +
    `printable text; remove it`
  );
}

/** 1-based line and column of `index` in `text` (the end of the text for Infinity). */
function position(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - lineStart + 1 };
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence (the file is known to have one). */
function firstInvalidByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    const tail =
      b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (tail < 0) return i;
    // The second byte's range also rules out overlong forms, surrogates and code points above U+10FFFF.
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= tail; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += tail + 1;
  }
  return bytes.length;
}
