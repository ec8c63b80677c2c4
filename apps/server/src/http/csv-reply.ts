import type { FastifyReply } from 'fastify';

/** A CSV download: UTF-8, named for the browser's save dialog, its length known, never cached. */
export function sendCsv(reply: FastifyReply, file: string, text: string) {
  const csv = Buffer.from(text, 'utf8');
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file}"`)
    .header('content-length', csv.length)
    .header('cache-control', 'no-store')
    .send(csv);
}
