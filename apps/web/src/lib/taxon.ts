import type { Taxon } from '@ipp/contracts';

/**
 * A taxon as the console shows it, in both names: "桡足类（Copepoda）" in Chinese, "Copepoda (桡足类)" in English;
 * the Latin name alone where the team gave no Chinese name.
 */
export function taxonText(taxon: Pick<Taxon, 'name' | 'name_zh'> | null, language: string): string {
  if (!taxon) return '';
  if (!taxon.name_zh) return taxon.name;
  return language === 'en' ? `${taxon.name} (${taxon.name_zh})` : `${taxon.name_zh}（${taxon.name}）`;
}

/** The WoRMS page of an AphiaID. */
export const wormsUrl = (aphiaId: number) => `https://www.marinespecies.org/aphia.php?p=taxdetails&id=${aphiaId}`;
