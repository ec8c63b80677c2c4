import type { TestEnv } from './build.ts';

/** A multipart/form-data body with one file field named "file". */
function multipart(file: Buffer, filename: string, contentType = 'application/octet-stream') {
  const boundary = '----ipp-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function upload(env: TestEnv, token: string | undefined, url: string, file: Buffer, filename: string, lang = 'en') {
  const { payload, headers } = multipart(file, filename);
  return env.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...headers, 'x-lang': lang, ...(token ? { 'x-token': token } : {}) },
  });
}
