/**
 * The text of an uploaded broker file, whatever its encoding: UTF-8 (with or without a byte-order
 * mark), UTF-16 little- or big-endian (with a byte-order mark, or without one when every other
 * byte of the start is zero: Nordnet's Danish export), else Windows-1252 when the bytes are not
 * valid UTF-8 (French and German exports saved by Excel).
 */
export function decodeBrokerFile(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const utf16 = utf16Order(bytes);
  if (utf16 !== undefined) return new TextDecoder(utf16).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return windows1252(bytes);
  }
}

/**
 * Windows-1252 bytes 0x80–0x9F (0x81, 0x8D, 0x8F, 0x90 and 0x9D are unassigned and kept as their
 * C1 code points); every other byte is its Latin-1 code point. Node's `TextDecoder` reads the
 * `windows-1252` label as Latin-1 (0x80 is not €), hence this table.
 */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function windows1252(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) {
    text += byte >= 0x80 && byte < 0xa0 ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  }
  return text;
}

/** UTF-16 without a byte-order mark: most of the first 200 odd (LE) or even (BE) bytes zero. */
function utf16Order(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const sample = bytes.subarray(0, 400);
  if (sample.length < 4) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  sample.forEach((b, i) => {
    if (b !== 0) return;
    if (i % 2 === 0) evenZero++;
    else oddZero++;
  });
  const half = sample.length / 2;
  if (oddZero > half * 0.7 && evenZero < half * 0.1) return 'utf-16le';
  if (evenZero > half * 0.7 && oddZero < half * 0.1) return 'utf-16be';
  return undefined;
}
