// The Import Log progress text: the unit follows the file's size, so a 30 KB log reads
// "12 of 30 KB", not "0.0 of 0.0 MB".
const KB = 1024;
const MB = 1024 * 1024;

function amount(bytes: number, unit: number): string {
  const v = bytes / unit;
  return v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US');
}

/** "1.2 of 4.5 MB", "12 of 30 KB", "300 of 800 bytes". */
export function importProgressText(bytesRead: number, totalBytes: number): string {
  if (totalBytes >= MB) return `${amount(bytesRead, MB)} of ${amount(totalBytes, MB)} MB`;
  if (totalBytes >= KB) return `${amount(bytesRead, KB)} of ${amount(totalBytes, KB)} KB`;
  return `${bytesRead} of ${totalBytes} bytes`;
}
