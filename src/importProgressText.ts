// The Import Log progress text, by the CLI's size rule (byteSizeText): the unit follows the
// file's size, so a 30 KB log reads "12 of 30 KB", not "0.0 of 0.0 MB".
import { byteSizesText } from '../server/shared';

/** "1.2 of 4.5 MB", "12 of 30 KB", "300 of 800 bytes". */
export function importProgressText(bytesRead: number, totalBytes: number): string {
  return byteSizesText(bytesRead, totalBytes);
}
