/**
 * Reads the statements a PostgreSQL client sends, from the bytes of its connection (the frontend protocol): the text
 * of each simple query ('Q') and of each statement it prepares ('P'), and each execution of a named prepared
 * statement ('B'). Lets a test name the statements a server sent instead of counting bytes.
 */
const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

export const pgStatementReader = (onStatement: (text: string) => void) => {
  let buffer = new Uint8Array(0);
  let started = false;
  const decoder = new TextDecoder();
  const cString = (bytes: Uint8Array, from: number) => {
    const end = bytes.indexOf(0, from);
    return { text: decoder.decode(bytes.subarray(from, end)), next: end + 1 };
  };
  return (chunk: Uint8Array) => {
    const joined = new Uint8Array(buffer.length + chunk.length);
    joined.set(buffer);
    joined.set(chunk, buffer.length);
    buffer = joined;
    for (;;) {
      const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      if (!started) {
        // The startup message and the requests before it carry no type byte.
        if (buffer.length < 8) return;
        const length = view.getInt32(0);
        if (buffer.length < length) return;
        const code = view.getInt32(4);
        if (code !== SSL_REQUEST && code !== GSS_REQUEST) started = true;
        buffer = buffer.subarray(length);
        continue;
      }
      if (buffer.length < 5) return;
      const length = view.getInt32(1) + 1;
      if (buffer.length < length) return;
      const type = String.fromCharCode(buffer[0] ?? 0);
      const body = buffer.subarray(5, length);
      if (type === 'Q') onStatement(cString(body, 0).text);
      if (type === 'P') onStatement(cString(body, cString(body, 0).next).text);
      if (type === 'B') {
        const statement = cString(body, cString(body, 0).next).text;
        if (statement !== '') onStatement(`execute ${statement}`);
      }
      buffer = buffer.subarray(length);
    }
  };
};
