/**
 * Saves what the server handed out as a file of the browser's downloads: the console's exports
 * (CSV, whose byte-order mark the server writes, and the menu's JSON) all leave through here.
 */
export function saveFile(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const CSV_TYPE = 'text/csv;charset=utf-8';
