/**
 * Folds a header or cell for vocabulary matching: lower case, accents removed (NFKD), the letters
 * NFKD keeps (ø æ å ł ß œ) spelt out, and every run of other characters made one space.
 */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/đ/g, 'd')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Whether folded `text` holds `word` (folded) as whole words. */
export function hasWord(text: string, word: string): boolean {
  return ` ${text} `.includes(` ${word} `);
}
