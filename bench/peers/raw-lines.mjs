// The hand-written pair's line reader: a list of chunks, new bytes scanned once for '\n', one concat per
// line. Calls onLine(text) for each complete line.
export function lineReader(onLine) {
  let parts = [];
  let size = 0;
  return (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      if (size === 0) onLine(chunk.toString('utf8', start, nl));
      else {
        parts.push(chunk.subarray(start, nl));
        const line = Buffer.concat(parts, size + nl - start).toString('utf8');
        parts = [];
        size = 0;
        onLine(line);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      parts.push(chunk.subarray(start));
      size += chunk.length - start;
    }
  };
}
