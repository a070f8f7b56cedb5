/**
 * A column header that wraps only between words: antd's headers break a word that does not fit
 * ("Bluetoo-th"), so an English header wraps onto a second line at a space instead, and its column is
 * wide enough for its longest word (headerWidth). Chinese headers wrap between characters as usual.
 */
export function HeaderText({ text }: { text: string }) {
  return (
    <span title={text} style={{ whiteSpace: 'normal', overflowWrap: 'normal', wordBreak: 'normal', hyphens: 'manual' }}>
      {text}
    </span>
  );
}

/** The cell padding and the sorter's icon beside a header's text (px). */
const HEADER_CHROME = 48;
/** The widest character of a bold 14 px Latin header, on average over a word (px). */
const LATIN_CHAR = 8.6;

/** A column's width: base, or more when the header's longest Latin word would not fit on one line. */
export function headerWidth(text: string, base: number): number {
  const words = text.match(/[A-Za-z0-9'’().%-]+/g) ?? [];
  const longest = Math.max(0, ...words.map((w) => w.length));
  return Math.max(base, Math.ceil(longest * LATIN_CHAR) + HEADER_CHROME);
}
