/**
 * The plant problem catalogue's shapes (issue 14; spec part 2 §7 "Plant problems"): global content,
 * the same for every company, shipped with the server and the app (searchable offline). A company's
 * own solutions and colours are records of the company, not part of the catalogue.
 */

/** Pests (insects, mites, molluscs), diseases (fungi, oomycetes, bacteria, viruses, viroids) and disorders (nutrients, light, heat, water, pH). */
export type ProblemKind = 'pest' | 'disease' | 'disorder';

/** Where on the plant a symptom shows. */
export interface SymptomGroup {
  id: number;
  slug: 'leaves' | 'stems' | 'roots' | 'flowers' | 'whole-plant';
  name: string;
}

export interface Symptom {
  id: number;
  slug: string;
  name: string;
  /** The symptom group's slug. */
  group: SymptomGroup['slug'];
}

/** A colour a problem turns the plant (yellow, bronze, white powder, …), with a swatch for the screen. */
export interface ColorSymptom {
  id: number;
  slug: string;
  name: string;
  /** CSS hex colour of the swatch. */
  swatch: string;
}

export type SolutionKind = 'cultural' | 'biological' | 'chemical';

export interface Solution {
  kind: SolutionKind;
  text: string;
  /** Biological solutions: the beneficial organisms used (e.g. "Phytoseiulus persimilis"). */
  organisms?: string[];
}

export interface LookAlike {
  /** The look-alike's slug in this catalogue. */
  slug: string;
  /** How to tell this problem from it. */
  how_to_tell: string;
}

export interface CatalogueProblem {
  id: number;
  slug: string;
  name: string;
  scientific_name: string | null;
  kind: ProblemKind;
  /** A finer grouping shown on the screen: "Mites", "Thrips", "Fungal disease", "Nutrient deficiency", … */
  category: string;
  description: string;
  /** Symptom group slugs. */
  symptom_groups: Array<SymptomGroup['slug']>;
  /** Symptom slugs. */
  symptoms: string[];
  /** Colour symptom slugs. */
  color_symptoms: string[];
  look_alikes: LookAlike[];
  solutions: Solution[];
  /** The default abbreviation on the pest-pressure map (2–3 letters), until the company maps its own. */
  abbreviation: string;
}
