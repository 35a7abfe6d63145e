/**
 * A one-page PDF of lines of text (PDF 1.4, A4, Helvetica in WinAnsiEncoding, so Portuguese's accented
 * letters print): what Efí's receipts are (docs/efi.md, Receipts), written without a library.
 */

/** A line: its text, and whether it is a heading (larger, bold). */
export interface PdfLine { text: string, heading?: boolean }

/** Text as a PDF literal string: its parentheses and backslashes escaped; what WinAnsi lacks as `?`. */
const literal = (s: string): string => `(${[...s].map(c => c.charCodeAt(0) > 255 ? '?' : c).join('').replace(/[\\()]/g, m => `\\${m}`)})`

export function textPdf (title: string, lines: readonly PdfLine[]): Buffer {
  let y = 800
  const content = lines.map(l => {
    const size = l.heading === true ? 16 : 11
    y -= l.heading === true ? 28 : 18
    return `BT /${l.heading === true ? 'F2' : 'F1'} ${size} Tf 56 ${y} Td ${literal(l.text)} Tj ET`
  }).join('\n')
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title ${literal(title)} /Producer (pix-sandbox) >>`,
  ]
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map(o => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}
