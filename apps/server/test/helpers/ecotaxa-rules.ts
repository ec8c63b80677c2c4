/**
 * EcoTaxa's import validation, as its server code states it (github.com/ecotaxa/ecotaxa_back, read at cb44b19;
 * docs/ecotaxa.md lists the rules and where each lives). Given the files of an export, it answers the errors EcoTaxa
 * would raise, in EcoTaxa's own words, plus the silent changes it would make (text read as Latin-1, sample or
 * acquisition values ignored after the first row). An empty list means EcoTaxa imports the export as written.
 */

// py/BO/Mappings.py: PREDEFINED_FIELDS + DOUBLED_FIELDS.
const PREDEFINED = new Set([
  'object_id',
  'object_lat',
  'object_lon',
  'object_date',
  'object_time',
  'object_link',
  'object_depth_min',
  'object_depth_max',
  'object_annotation_status',
  'object_annotation_category',
  'object_annotation_category_id',
  'object_annotation_person_name',
  'object_annotation_person_email',
  'object_annotation_date',
  'object_annotation_time',
  'object_annotation_hierarchy',
  'complement_info',
  'img_file_name',
  'img_rank',
  'sample_id',
  'sample_dataportal_descriptor',
  'acq_id',
  'acq_instrument',
  'process_id',
]);
const NUMERIC = new Set([
  'object_lat',
  'object_lon',
  'object_depth_min',
  'object_depth_max',
  'img_rank',
  'object_annotation_category_id',
]);
const PREFIXES = ['object', 'sample', 'acq', 'process'] as const;
// Free columns per level (DB/Object.py, Sample.py, Acquisition.py, Process.py).
const CAPACITY = { object_f: 500, object_t: 20, sample: 60, acq: 30, process: 30 };
const STATUSES = new Set(['predicted', 'validated', 'dubious', 'discarded']);
// Columns of EcoTaxa's own exports that its import refuses or cannot store (API_operations/exports/ForProject.py).
const REFUSED = new Set(['object_annotation_hierarchy', 'objid', 'processid_internal', 'acq_id_internal', 'sample_id_internal']);
const LIMIT_255 = new Set(['object_id', 'sample_id', 'acq_id', 'process_id', 'object_link', 'img_file_name', 'acq_instrument']);

/** PNG, JPEG and GIF by their first bytes (BO/Image.py reads them with PIL and accepts these three). */
export function imageFormatOf(data: Buffer): 'PNG' | 'JPEG' | 'GIF' | 'WEBP' | 'unknown' {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'PNG';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'JPEG';
  if (data.subarray(0, 6).toString('latin1') === 'GIF87a' || data.subarray(0, 6).toString('latin1') === 'GIF89a') return 'GIF';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'WEBP';
  return 'unknown';
}

/** TSVFile.open: Latin-1, unless the file starts with UTF-8's byte-order mark. */
export function ecotaxaDecode(bytes: Buffer): string {
  const bom = bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
  return bom ? bytes.subarray(3).toString('utf8') : bytes.toString('latin1');
}

/** Python's float() on a stripped cell; '' and nan/na are empty (TSVHelpers.to_float, clean_value). */
function floatOk(v: string) {
  if (v === '' || /^(nan|na)$/i.test(v)) return true;
  return /^[+-]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(v) || /^\+?inf(inity)?$/i.test(v);
}

/** ObjectHeader.date_from_txt: YYYY-MM-DD, or the first 8 characters as YYYYMMDD, a real calendar date. */
function dateOk(v: string) {
  const m = v[4] === '-' && v[7] === '-' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(v) : /^(\d{4})(\d{2})(\d{2})/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** ObjectHeader.time_from_txt: HH:MM:SS, or digits padded to HHMMSS. */
function timeOk(v: string) {
  let m: RegExpExecArray | null;
  if (v[2] === ':' && v[5] === ':') m = /^(\d{2}):(\d{2}):(\d{2})$/.exec(v);
  else {
    if (!/^\d+$/.test(v)) return false;
    m = /^(\d{2})(\d{2})(\d{2})$/.exec(v.padStart(4, '0').padEnd(6, '0'));
  }
  return !!m && Number(m[1]) < 24 && Number(m[2]) < 60 && Number(m[3]) < 60;
}

export interface EcotaxaCheck {
  /** What EcoTaxa's validation would refuse (the import fails on any). */
  errors: string[];
  /** What it would import silently changed. */
  silent: string[];
  /** The rows as EcoTaxa reads them, by column. */
  rows: Record<string, string>[];
}

/** Checks the files of an export (name → bytes) against EcoTaxa's import rules. */
export function checkEcotaxa(files: Map<string, Buffer>): EcotaxaCheck {
  const errors: string[] = [];
  const silent: string[] = [];
  const rows: Record<string, string>[] = [];
  // Bundle.py: any ecotaxa*.tsv or ecotaxa*.txt at any depth.
  const tsvs = [...files.keys()].filter((n) => /^ecotaxa.*\.(tsv|txt)$/.test(n.split('/').pop()!)).sort();
  if (tsvs.length === 0)
    errors.push("No object to import. * No .txt or .tsv file was found, of which name starts with 'ecotaxa'.");
  const seenPairs = new Map<string, number>();
  const acqSample = new Map<string, Set<string>>();
  for (const tsvName of tsvs) {
    const bytes = files.get(tsvName)!;
    const text = ecotaxaDecode(bytes);
    if (text !== bytes.toString('utf8').replace(/^\uFEFF/, ''))
      silent.push(`${tsvName}: read as Latin-1 (no UTF-8 byte-order mark): non-ASCII text changes`);
    const dir = tsvName.includes('/') ? tsvName.slice(0, tsvName.lastIndexOf('/') + 1) : '';
    const lines = text.split(/\r?\n/).filter((l) => l !== '');
    if (lines.length < 2) {
      errors.push('No object to import. *  TSV file(s) might be empty.');
      continue;
    }
    const header = lines[0]!.split('\t');
    const types = lines[1]!.split('\t');
    const cols = header.map((h) => h.trim().toLowerCase());
    // TSVFile.validate_structure.
    const counts = { object_f: 0, object_t: 0, sample: 0, acq: 0, process: 0 };
    const byPrefix = new Map<string, string[]>();
    header.forEach((raw, i) => {
      const name = cols[i]!;
      if (raw !== name) errors.push(`Header '${raw}' is not lower case: EcoTaxa's line checks would not find it.`);
      if (REFUSED.has(name)) errors.push(`Column ${name} cannot be imported.`);
      if (!name.includes('_')) return errors.push(`Invalid Header '${name}'. Format must be Table_Field.`);
      const prefix = name.slice(0, name.indexOf('_'));
      if (name !== 'img_file_name' && name !== 'img_rank' && name !== 'complement_info') {
        if (!(PREFIXES as readonly string[]).includes(prefix))
          return errors.push(`Invalid Header '${name}'. Unknown table prefix '${prefix}'.`);
        byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), name]);
      }
      if (PREDEFINED.has(name)) return;
      if (prefix === 'object') {
        const type = types[i];
        if (type !== '[f]' && type !== '[t]') return errors.push(`Invalid Type '${type ?? ''}' for field '${name}'.`);
        counts[type === '[f]' ? 'object_f' : 'object_t']++;
      } else if (prefix === 'sample' || prefix === 'acq' || prefix === 'process') counts[prefix]++;
    });
    if (new Set(cols).size !== cols.length) errors.push('Duplicate column names.');
    for (const [key, max] of Object.entries(CAPACITY))
      if (counts[key as keyof typeof counts] > max)
        errors.push(`Too many custom ${key} fields: ${counts[key as keyof typeof counts]} > ${max}.`);
    for (const prefix of PREFIXES) {
      const own = byPrefix.get(prefix);
      if (own && !cols.includes(`${prefix}_id`))
        errors.push(
          `Field ${prefix}_id is mandatory as there are some ${prefix} columns: [${own
            .sort()
            .map((c) => `'${c}'`)
            .join(', ')}].`,
        );
    }
    const numeric = (name: string, i: number) =>
      NUMERIC.has(name) || (name.startsWith('object_') && !PREDEFINED.has(name) && types[i] === '[f]');
    // TSVFile.validate_content / validate_line, per row (line 3 is the first row).
    const entityValues = new Map<string, string>();
    lines.slice(2).forEach((line, k) => {
      const at = k + 3;
      const values = line.split('\t');
      if (values.length > cols.length)
        errors.push(`line ${at}: Value(s) ['${values.slice(cols.length).join("', '")}'] must not be in a header-less column.`);
      if (values.length < cols.length) errors.push(`line ${at}: ${cols.length - values.length} cell(s) missing.`);
      const row: Record<string, string> = {};
      cols.forEach((c, i) => (row[c] = (values[i] ?? '').trim()));
      rows.push(row);
      cols.forEach((c, i) => {
        const v = row[c]!;
        if (v === '') return;
        if (numeric(c, i) && !floatOk(v)) errors.push(`line ${at}: Invalid float value '${v}' for field '${c}'.`);
        if (c === 'object_lat' && !(Math.abs(Number(v)) <= 90))
          errors.push(`line ${at}: Invalid Lat. value '${v}' for field '${c}'. Correct range is -90/+90°.`);
        if (c === 'object_lon' && !(Math.abs(Number(v)) <= 180))
          errors.push(`line ${at}: Invalid Long. value '${v}' for field '${c}'. Correct range is -180/+180°.`);
        if ((c === 'object_date' || c === 'object_annotation_date') && !dateOk(v))
          errors.push(`line ${at}: Invalid Date value '${v}' for field '${c}'.`);
        if ((c === 'object_time' || c === 'object_annotation_time') && !timeOk(v))
          errors.push(`line ${at}: Invalid Time value '${v}' for field '${c}'.`);
        if (c === 'object_annotation_status' && !STATUSES.has(v.toLowerCase()) && v !== 'noid')
          errors.push(`line ${at}: Invalid Annotation Status '${v}' for field '${c}'.`);
        if (LIMIT_255.has(c) && v.length > 255) errors.push(`line ${at}: ${c} longer than 255 characters.`);
        if (c.startsWith('sample_') || c.startsWith('acq_') || c.startsWith('process_')) {
          // Only the first row of an entity sets its values; later ones are ignored (TSVFile.add_parent_objects).
          const entity = c.startsWith('sample_') ? `s:${row.sample_id}` : `a:${row.sample_id}/${row.acq_id}`;
          const key = `${entity}:${c}`;
          const first = entityValues.get(key);
          if (first === undefined) entityValues.set(key, v);
          else if (first !== v) silent.push(`line ${at}: ${c} '${v}' ignored, the entity has '${first}'`);
        }
      });
      if (!row.object_id) errors.push(`line ${at}: Missing object_id.`);
      const image = row.img_file_name ?? 'absent img_file_name';
      const data = files.get(dir + image);
      if (!data) errors.push(`line ${at}: Missing Image '${image}'.`);
      else {
        const format = imageFormatOf(data);
        if (format !== 'PNG' && format !== 'JPEG' && format !== 'GIF')
          errors.push(
            `line ${at}: Error while reading image '${image}': Unsupported image format: ${format}, please convert to one of {'PNG', 'JPEG', 'GIF'}`,
          );
      }
      const pair = `${row.object_id}*${image}`;
      const before = seenPairs.get(pair);
      if (before !== undefined)
        errors.push(`line ${at}: (Object '${row.object_id}', Image '${image}') is already in this TSV line ${before}.`);
      seenPairs.set(pair, at);
      if (row.sample_id && row.acq_id) {
        // ProjectTopology.evaluate_add_association: reported once per new pair, which is then added anyway.
        const samples = acqSample.get(row.acq_id) ?? new Set<string>();
        if (samples.size > 0 && !samples.has(row.sample_id))
          errors.push(
            `Acquisition '${row.acq_id}' is already associated with sample '{${[...samples].map((x) => `'${x}'`).join(', ')}}', it cannot be associated as well with '${row.sample_id}`,
          );
        acqSample.set(row.acq_id, samples.add(row.sample_id));
      }
      const status = row.object_annotation_status ?? '';
      const category = cols.includes('object_annotation_category')
        ? (row.object_annotation_category ?? '')
        : (row.object_annotation_category_id ?? '');
      if (status && !category)
        errors.push(`line ${at}: When annotation status '${status}' is provided there has to be a category.`);
      if (category && !status) errors.push(`line ${at}: When a category (${category}) is provided it has to be with a status.`);
    });
  }
  return { errors, silent, rows };
}
