/**
 * The starter list (issue 22; docs/ecotaxa.md "Taxonomy"): taxa for the classes the demo and the PWSSC image sets use,
 * by the class's name without its three digits, compared without case. A team's own mapping replaces an entry;
 * classes not listed here have no taxon until a team maps them.
 *
 * - `name` is the Latin name EcoTaxa knows: the taxon itself, or for a life stage the taxon it belongs to (a furcilia
 *   is a euphausiid, a nauplius a crustacean, a pluteus an echinoderm), or one of EcoTaxa's non-living categories
 *   ("detritus", "bubble"). Marine snow is detritus.
 * - `aphia_id` is the WoRMS AphiaID only where it was checked against a WoRMS record (docs/ecotaxa.md lists the
 *   sources); otherwise null, for the team to fill in. Non-living categories have none.
 * - `name_zh` is the usual Chinese name where there is one in common use; otherwise null, and the console shows the
 *   Latin name alone.
 * - Blob, Dot, Filament, Spiral, Unknown and Unclassified are not taxa: they have no entry.
 */
export interface StarterTaxon {
  name: string;
  aphia_id: number | null;
  name_zh: string | null;
}

const taxon = (name: string, aphia_id: number | null, name_zh: string | null): StarterTaxon => ({ name, aphia_id, name_zh });

export const STARTER_TAXA: Readonly<Record<string, StarterTaxon>> = {
  // The demo's classes.
  copepod: taxon('Copepoda', 1080, '桡足类'),
  diatom_chain: taxon('Bacillariophyceae', 148899, '硅藻'),
  dinoflagellate: taxon('Dinophyceae', 19542, '甲藻'),
  appendicularian: taxon('Appendicularia', 146421, '有尾类'),
  chaetognath: taxon('Chaetognatha', 2081, '毛颚类'),
  medusa: taxon('Medusozoa', null, '水母类'),
  detritus: taxon('detritus', null, '碎屑'),
  bubble: taxon('bubble', null, '气泡'),
  // The PWSSC sets' classes (Copepod and Chaetognatha above and below).
  acartia: taxon('Acartia', 104108, '纺锤水蚤属'),
  aglantha: taxon('Aglantha', null, null),
  bolinopsis: taxon('Bolinopsis', null, null),
  calanus: taxon('Calanus', null, '哲水蚤属'),
  chaetognatha: taxon('Chaetognatha', 2081, '毛颚类'),
  clytia: taxon('Clytia', null, '美螅水母属'),
  cnidaria: taxon('Cnidaria', 1267, '刺胞动物'),
  ctenophora: taxon('Ctenophora', 1248, '栉水母'),
  doliolida: taxon('Doliolida', null, '海樽'),
  furcilia: taxon('Euphausiacea', null, '磷虾'),
  larvacea: taxon('Appendicularia', 146421, '有尾类'),
  limacina: taxon('Limacina', null, null),
  metridia: taxon('Metridia', null, '长腹水蚤属'),
  nauplius: taxon('Crustacea', 1066, '甲壳动物'),
  neocalanus: taxon('Neocalanus', null, '新哲水蚤属'),
  oikopleura: taxon('Oikopleura', null, '住囊虫属'),
  oithona: taxon('Oithona', 106485, '长腹剑水蚤属'),
  paraeuchaeta: taxon('Paraeuchaeta', null, '拟真刺水蚤属'),
  parasagitta: taxon('Parasagitta', null, null),
  pleurobrachia: taxon('Pleurobrachia', null, '侧腕水母属'),
  pluteus: taxon('Echinodermata', 1806, '棘皮动物'),
  polychaeta: taxon('Polychaeta', 883, '多毛类'),
  pseudocalanus: taxon('Pseudocalanus', null, '伪哲水蚤属'),
  radiolarian: taxon('Radiozoa', null, '放射虫'),
  siphonophora: taxon('Siphonophorae', 1371, '管水母'),
  snow: taxon('detritus', null, '碎屑'),
  spionidae: taxon('Spionidae', null, '海稚虫科'),
};

/** The starter entry of a class, by its name without the three-digit label index. */
export function starterTaxonOf(className: string): StarterTaxon | null {
  const key = className.replace(/^\d{3}/, '').toLowerCase();
  return Object.hasOwn(STARTER_TAXA, key) ? STARTER_TAXA[key]! : null;
}
