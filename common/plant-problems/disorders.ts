/**
 * The catalogue's disorders (ids 49–77): nutrient deficiencies and excesses, light, heat, cold, water,
 * pH, physical and chemical injury. They have no organism behind them, so no scientific name and only
 * cultural corrections (feed, EC, pH, environment).
 *
 * WARNING: ids and slugs are stable (recorded problems name them); add a disorder with the catalogue's
 * next free id, never renumber.
 */
import type { CatalogueProblem } from './types';

export const DISORDERS: CatalogueProblem[] = [
  {
    id: 49,
    slug: 'nitrogen-deficiency',
    name: 'Nitrogen deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'Nitrogen moves from old to new leaves when short, so the oldest leaves turn evenly pale then yellow and drop, and the yellowing climbs the plant. Growth slows and stems may redden. Common in fast vegetative growth on a weak feed, in leached media and in late flowering, when some fading in cannabis is normal.',
    symptom_groups: ['leaves', 'whole-plant', 'stems'],
    symptoms: ['older-leaves-yellow', 'pale-whole-plant', 'leaf-drop', 'stunted-growth', 'purple-stems'],
    color_symptoms: ['yellowing', 'pale-bleached'],
    look_alikes: [
      { slug: 'sulfur-deficiency', how_to_tell: 'Sulfur deficiency yellows the newest leaves first; nitrogen deficiency yellows the oldest first.' },
      { slug: 'magnesium-deficiency', how_to_tell: 'Magnesium deficiency yellows between green veins; nitrogen deficiency yellows the whole leaf, veins included.' },
      { slug: 'overwatering', how_to_tell: 'Waterlogged roots cannot take up nitrogen: if the medium stays wet and leaves droop, fix watering before feeding more.' },
      { slug: 'pythium-root-rot', how_to_tell: 'Check the roots: brown, slimy roots explain yellowing that feeding does not fix.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Raise nitrogen in the feed (nitrate-based) or raise the feed EC a step and check runoff EC and pH; a foliar feed gives quick relief in vegetative growth; do not push nitrogen late in flowering.' },
    ],
    abbreviation: 'ND',
  },
  {
    id: 50,
    slug: 'phosphorus-deficiency',
    name: 'Phosphorus deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'Leaves turn dull, dark bluish-green, often with purple or bronze undersides and leaf stalks, starting on older leaves; growth and flowering slow down. It is more often caused by cold roots (below about 15 °C), high pH or a waterlogged medium than by a lack of phosphorus in the feed.',
    symptom_groups: ['leaves', 'stems', 'whole-plant', 'flowers'],
    symptoms: ['dull-blue-green', 'scattered-brown-spots', 'purple-stems', 'stunted-growth', 'small-buds-poor-yield'],
    color_symptoms: ['dark-green', 'purple-red', 'bronze'],
    look_alikes: [
      { slug: 'cold-stress', how_to_tell: 'Cold purpling appears after cold nights on all plants and fades when warmth returns; check root-zone temperature first, as cold itself blocks phosphorus uptake.' },
      { slug: 'nitrogen-toxicity', how_to_tell: 'Excess nitrogen gives glossy dark leaves that claw, without purple stalks or dull blue tones.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Warm the root zone to 18–22 °C; bring pH into range (5.8–6.2 in soilless media, 6.2–6.8 in soil); then raise phosphate in the feed if runoff tests low. Purple stems alone may be genetic.' },
    ],
    abbreviation: 'PD',
  },
  {
    id: 51,
    slug: 'potassium-deficiency',
    name: 'Potassium deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'Older leaves yellow along the margins and tips, then the edges scorch brown and curl; brown spots may appear in the blade. Stems weaken and fruit ripens unevenly (blotchy tomatoes) and buds stay small. High demand in flowering and fruiting and excess calcium, magnesium or ammonium make it worse.',
    symptom_groups: ['leaves', 'flowers'],
    symptoms: ['scorched-margins', 'older-leaves-yellow', 'scattered-brown-spots', 'fruit-rings-blotches'],
    color_symptoms: ['yellowing', 'brown-necrotic'],
    look_alikes: [
      { slug: 'salt-burn', how_to_tell: 'Salt burn browns leaf tips on all leaves with dark green blades and high runoff EC; potassium deficiency starts with yellow margins on older leaves.' },
      { slug: 'magnesium-deficiency', how_to_tell: 'Magnesium deficiency yellows between the veins first; potassium deficiency starts at the margins.' },
      { slug: 'leafhoppers', how_to_tell: 'Hopperburn starts from the tip in a wedge and insects jump off when shaken.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Raise potassium in the feed (potassium nitrate, potassium sulfate or monopotassium phosphate) especially in flowering and fruiting; check the K:Ca:Mg balance and runoff pH; damaged leaves do not recover, watch new ones.' },
    ],
    abbreviation: 'KD',
  },
  {
    id: 52,
    slug: 'calcium-deficiency',
    name: 'Calcium deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'Calcium moves only with the water the plant transpires, so shortage shows on new growth: distorted, hooked or crinkled young leaves, brown spots and dead margins, tip burn in lettuce and blossom-end rot in tomato and pepper. It is usually a transport problem (high humidity, drought, high EC, weak roots) rather than too little calcium, except with soft or RO water and unbuffered coco.',
    symptom_groups: ['leaves', 'flowers'],
    symptoms: ['twisted-new-growth', 'scattered-brown-spots', 'burnt-tips', 'blossom-end-patch'],
    color_symptoms: ['brown-necrotic', 'yellowing'],
    look_alikes: [
      { slug: 'broad-mite', how_to_tell: 'Broad mite new leaves are glossy, leathery and curl down, and mites show under a 30× lens; calcium-deficient leaves have normal texture with brown spots.' },
      { slug: 'boron-deficiency', how_to_tell: 'Boron deficiency makes new leaves thick and brittle and stems hollow; calcium deficiency gives soft distortion and spots.' },
      { slug: 'heat-stress', how_to_tell: 'Heat stress tacos the top leaves without spots and eases when the room cools.' },
      { slug: 'ph-too-low', how_to_tell: 'Low pH causes calcium and magnesium shortage together; measure runoff pH before adding calcium.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Keep transpiration steady: a moderate VPD (avoid very humid nights and very dry days), even watering, EC not too high; feed calcium nitrate or a calcium-magnesium supplement with RO water and buffer coco; a foliar calcium spray helps new leaves only.' },
    ],
    abbreviation: 'CAD',
  },
  {
    id: 53,
    slug: 'magnesium-deficiency',
    name: 'Magnesium deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'Older and middle leaves yellow between the veins while the veins stay green, later with reddish-brown spots and upturned edges. Very common in coco, with RO water, and when potassium or calcium is high. Tomato, cucumber, pepper and cannabis show it in heavy fruiting or flowering.',
    symptom_groups: ['leaves'],
    symptoms: ['interveinal-older', 'scattered-brown-spots', 'leaf-edges-curl-up'],
    color_symptoms: ['interveinal-yellowing', 'brown-necrotic', 'purple-red'],
    look_alikes: [
      { slug: 'iron-deficiency', how_to_tell: 'Iron deficiency yellows between the veins of the newest leaves; magnesium deficiency starts on older leaves.' },
      { slug: 'nitrogen-deficiency', how_to_tell: 'Nitrogen deficiency yellows the whole old leaf including the veins.' },
      { slug: 'two-spotted-spider-mite', how_to_tell: 'Mite damage is speckled and shows mites under a lens; magnesium yellowing follows the veins in a regular pattern.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Add magnesium sulfate or magnesium nitrate to the feed and check the K:Mg ratio; buffer coco with calcium-magnesium; a foliar spray of magnesium sulfate (about 1–2 %) gives fast relief on tolerant crops; check pH.' },
    ],
    abbreviation: 'MGD',
  },
  {
    id: 54,
    slug: 'sulfur-deficiency',
    name: 'Sulfur deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'The youngest leaves turn evenly pale green to yellow, veins included, and growth slows; older leaves stay greener. It is rare with complete feeds that contain sulfates, but appears with nitrate-only or homemade feeds.',
    symptom_groups: ['leaves', 'whole-plant'],
    symptoms: ['new-leaves-pale', 'pale-whole-plant', 'stunted-growth'],
    color_symptoms: ['yellowing', 'pale-bleached'],
    look_alikes: [
      { slug: 'nitrogen-deficiency', how_to_tell: 'Nitrogen deficiency yellows old leaves first; sulfur deficiency yellows new leaves first.' },
      { slug: 'iron-deficiency', how_to_tell: 'Iron deficiency keeps the veins green on new leaves; sulfur deficiency yellows them too.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Use a complete feed containing sulfates (magnesium or potassium sulfate); check pH and that the root zone is not waterlogged.' },
    ],
    abbreviation: 'SD',
  },
  {
    id: 55,
    slug: 'iron-deficiency',
    name: 'Iron deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'The newest leaves yellow between green veins, turning almost white in severe cases, while older leaves stay green. It is nearly always caused by high root-zone pH, waterlogged or cold roots or excess phosphorus or manganese, not by a lack of iron. Petunia, calibrachoa, basil and hydroponic crops are sensitive.',
    symptom_groups: ['leaves'],
    symptoms: ['interveinal-new', 'new-leaves-pale'],
    color_symptoms: ['interveinal-yellowing', 'pale-bleached'],
    look_alikes: [
      { slug: 'magnesium-deficiency', how_to_tell: 'Magnesium deficiency starts on old leaves; iron deficiency on the newest.' },
      { slug: 'manganese-deficiency', how_to_tell: 'Manganese deficiency gives a finer, duller netted pattern with small dead spots; iron deficiency is brighter yellow with sharp green veins.' },
      { slug: 'ph-too-high', how_to_tell: 'High pH is the usual cause: measure runoff pH before adding iron.' },
      { slug: 'black-root-rot', how_to_tell: 'In petunia and pansy check the roots: black bands mean black root rot, not iron.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Bring root-zone pH down (5.5–6.2 in soilless media); use chelated iron suited to the pH (Fe-DTPA up to about pH 7, Fe-EDDHA above); improve drainage and root temperature; a foliar iron chelate spray greens leaves quickly.' },
    ],
    abbreviation: 'FED',
  },
  {
    id: 56,
    slug: 'manganese-deficiency',
    name: 'Manganese deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'Young and middle leaves show a fine, netted yellowing between the veins, later with small brown dead spots. High pH, excess iron and organic-rich media cause it. Tomato, cucumber and cannabis are common cases.',
    symptom_groups: ['leaves'],
    symptoms: ['interveinal-new', 'scattered-brown-spots'],
    color_symptoms: ['interveinal-yellowing', 'brown-necrotic'],
    look_alikes: [
      { slug: 'iron-deficiency', how_to_tell: 'Iron deficiency is brighter yellow with no dead spots and starts on the newest leaves only.' },
      { slug: 'magnesium-deficiency', how_to_tell: 'Magnesium deficiency starts on old leaves.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Lower pH into range; add manganese sulfate or chelate in the micronutrient mix; a light foliar manganese spray; note that too much manganese at low pH is toxic.' },
    ],
    abbreviation: 'MND',
  },
  {
    id: 57,
    slug: 'zinc-deficiency',
    name: 'Zinc deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'New leaves come out small, narrow and crinkled with yellow between the veins, and internodes shorten so growth bunches into rosettes. High pH and excess phosphorus are the usual causes.',
    symptom_groups: ['leaves', 'stems'],
    symptoms: ['small-narrow-new-leaves', 'interveinal-new', 'short-internodes'],
    color_symptoms: ['interveinal-yellowing'],
    look_alikes: [
      { slug: 'herbicide-injury', how_to_tell: 'Growth-regulator herbicides twist and strap leaves on many plants at once; zinc deficiency gives small, rosetted leaves that improve with pH correction.' },
      { slug: 'iron-deficiency', how_to_tell: 'Iron deficiency yellows new leaves without making them small or shortening internodes.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Lower pH into range; reduce excess phosphate; add zinc sulfate or chelate in the micronutrient mix or as a light foliar spray.' },
    ],
    abbreviation: 'ZND',
  },
  {
    id: 58,
    slug: 'boron-deficiency',
    name: 'Boron deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'Growing tips die back, new leaves are thick, brittle and misshapen, stems may crack or turn hollow, and flowers and fruit set poorly. Dry, hot conditions with low transpiration and high pH favour it. The range between too little and too much boron is narrow.',
    symptom_groups: ['leaves', 'stems', 'flowers'],
    symptoms: ['thick-brittle-leaves', 'twisted-new-growth', 'hollow-cracked-stems', 'flower-fruit-drop'],
    color_symptoms: ['brown-necrotic', 'yellowing'],
    look_alikes: [
      { slug: 'calcium-deficiency', how_to_tell: 'Calcium-deficient new leaves are soft and spotted; boron-deficient ones are thick and brittle, with hollow stems.' },
      { slug: 'broad-mite', how_to_tell: 'Broad mite leaves are glossy and curl down, and mites show under a lens.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Check the micronutrient mix supplies boron (about 0.3–0.5 mg/L in solution); correct pH; dose small amounts of boric acid or solubor only after a test, since excess boron burns leaf margins.' },
    ],
    abbreviation: 'BD',
  },
  {
    id: 59,
    slug: 'copper-deficiency',
    name: 'Copper deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'Rare with complete feeds: young leaves turn dark blue-green, wilt, twist and die at the tips, and flowering is poor. Peat-rich media and high pH can cause it. Excess copper is toxic, so it is corrected carefully.',
    symptom_groups: ['leaves', 'flowers'],
    symptoms: ['dull-blue-green', 'twisted-new-growth', 'burnt-tips', 'small-buds-poor-yield'],
    color_symptoms: ['dark-green', 'brown-necrotic'],
    look_alikes: [
      { slug: 'phosphorus-deficiency', how_to_tell: 'Phosphorus deficiency darkens older leaves and purples the stalks; copper deficiency affects the newest leaves, which twist at the tips.' },
      { slug: 'heat-stress', how_to_tell: 'Heat stress eases when the room cools; copper deficiency persists until the feed changes.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Use a complete micronutrient mix with copper (about 0.05 mg/L in solution); check pH; do not add copper without a test, as it accumulates and is toxic.' },
    ],
    abbreviation: 'CUD',
  },
  {
    id: 60,
    slug: 'molybdenum-deficiency',
    name: 'Molybdenum deficiency',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'Middle and older leaves yellow between the veins and scorch at the margins; in brassicas new leaves become narrow (whiptail) and in poinsettia middle leaves scorch. It appears mostly in acidic media and in nitrate-fed crops with no molybdenum in the mix.',
    symptom_groups: ['leaves'],
    symptoms: ['interveinal-older', 'scorched-margins', 'narrow-strap-leaves'],
    color_symptoms: ['interveinal-yellowing', 'brown-necrotic'],
    look_alikes: [
      { slug: 'magnesium-deficiency', how_to_tell: 'Magnesium deficiency does not scorch margins early or narrow the leaves; a tissue test settles it.' },
      { slug: 'nitrogen-deficiency', how_to_tell: 'Nitrogen deficiency yellows whole old leaves; molybdenum deficiency is interveinal with scorched edges.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Raise pH if it is low; include sodium or ammonium molybdate in the micronutrient mix (very small amounts, about 0.05 mg/L).' },
    ],
    abbreviation: 'MOD',
  },
  {
    id: 61,
    slug: 'nitrogen-toxicity',
    name: 'Nitrogen toxicity (excess)',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient excess',
    description:
      'Too much nitrogen, especially ammonium, makes leaves very dark green and glossy with tips that claw downward, soft stretched growth that attracts aphids and mildew, and delayed flowering and fruiting. Common with heavy veg feeds carried into flowering and with rich organic media.',
    symptom_groups: ['leaves', 'flowers'],
    symptoms: ['dark-green-clawing', 'leaves-curl-down', 'small-buds-poor-yield'],
    color_symptoms: ['dark-green'],
    look_alikes: [
      { slug: 'overwatering', how_to_tell: 'Overwatered leaves droop whole from the stalk and the medium stays wet; nitrogen toxicity clawing is at the tips of dark, glossy leaves in a normally drying medium.' },
      { slug: 'phosphorus-deficiency', how_to_tell: 'Phosphorus deficiency gives dull blue-green leaves with purple stalks, not glossy clawing.' },
      { slug: 'heat-stress', how_to_tell: 'Heat stress curls leaf edges up; nitrogen toxicity claws tips down.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Lower nitrogen (and ammonium) in the feed or switch to the flowering feed; water through with plain pH-adjusted water if runoff EC is high; in organic media, stop top-dressing.' },
    ],
    abbreviation: 'NT',
  },
  {
    id: 62,
    slug: 'salt-burn',
    name: 'Salt (EC) burn',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient excess',
    description:
      'Too much fertiliser salt in the root zone draws water from the roots: leaf tips burn, then margins; leaves stay dark; plants wilt despite moist medium and root tips brown. Runoff EC well above input EC, a salt crust on the medium and dry-back in hot weather are the signs.',
    symptom_groups: ['leaves', 'roots', 'whole-plant'],
    symptoms: ['burnt-tips', 'scorched-margins', 'brown-root-tips', 'salt-crust', 'wilting-moist-medium'],
    color_symptoms: ['brown-necrotic', 'dark-green'],
    look_alikes: [
      { slug: 'potassium-deficiency', how_to_tell: 'Potassium deficiency starts with yellow margins on older leaves; salt burn starts at the tips of all leaves with high runoff EC.' },
      { slug: 'underwatering', how_to_tell: 'Underwatered plants have dry, light pots and recover with water; salt-burned plants stay burnt and runoff EC is high.' },
      { slug: 'light-burn', how_to_tell: 'Light burn is limited to leaves nearest the lamps.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Measure input and runoff EC; flush with pH-adjusted water at a lower EC until runoff falls; lower feed EC; water to 10–20 % runoff so salts do not build up; avoid letting media dry out fully between feeds.' },
    ],
    abbreviation: 'EC',
  },
  {
    id: 63,
    slug: 'nutrient-lockout',
    name: 'Nutrient lockout',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient excess',
    description:
      'Plants show several deficiencies at once although the feed contains everything: the root zone cannot take nutrients up because of wrong pH, salt build-up, one nutrient blocking another (excess potassium blocking magnesium and calcium, for example), or cold or waterlogged roots. Runoff pH and EC readings show the cause.',
    symptom_groups: ['whole-plant', 'leaves'],
    symptoms: ['mixed-deficiency-signs', 'older-leaves-yellow', 'interveinal-new', 'stunted-growth'],
    color_symptoms: ['yellowing', 'interveinal-yellowing', 'brown-necrotic'],
    look_alikes: [
      { slug: 'ph-too-high', how_to_tell: 'High pH locks out iron, manganese, zinc and phosphorus first: new leaves yellow.' },
      { slug: 'ph-too-low', how_to_tell: 'Low pH locks out calcium and magnesium first: brown spots and interveinal yellowing.' },
      { slug: 'salt-burn', how_to_tell: 'Salt build-up burns tips and shows as high runoff EC.' },
      { slug: 'pythium-root-rot', how_to_tell: 'Rotten roots cannot feed either: check for brown, slimy roots.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Measure runoff pH and EC; flush with pH-adjusted water at a low EC; then feed a balanced solution at the right pH; check root-zone temperature and drainage; avoid stacking additives.' },
    ],
    abbreviation: 'NL',
  },
  {
    id: 64,
    slug: 'blossom-end-rot',
    name: 'Blossom-end rot',
    scientific_name: null,
    kind: 'disorder',
    category: 'Nutrient deficiency',
    description:
      'A calcium disorder of the fruit: a water-soaked patch at the blossom end of tomato, pepper or eggplant fruit that turns dark, sunken and leathery. It comes from too little calcium reaching fast-growing fruit, through uneven watering, high EC, high humidity or root damage, rather than from too little calcium in the feed.',
    symptom_groups: ['flowers'],
    symptoms: ['blossom-end-patch'],
    color_symptoms: ['brown-necrotic', 'black-spots', 'water-soaked'],
    look_alikes: [
      { slug: 'calcium-deficiency', how_to_tell: 'Calcium deficiency on leaves affects new growth; blossom-end rot is the same shortage in fruit and often appears with healthy leaves.' },
      { slug: 'gummy-stem-blight', how_to_tell: 'In cucurbits an internal fruit rot from the blossom end with black specks is gummy stem blight, not a calcium disorder.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Water evenly and avoid drought between irrigations; keep EC moderate; avoid very humid nights and excess ammonium or potassium; ensure calcium in the feed; remove affected fruit, as they do not recover.' },
    ],
    abbreviation: 'BER',
  },
  {
    id: 65,
    slug: 'light-burn',
    name: 'Light burn (bleaching)',
    scientific_name: null,
    kind: 'disorder',
    category: 'Light stress',
    description:
      'Too much light bleaches the leaves and buds nearest the lamps white or pale yellow, sometimes with brown crispy spots, while lower leaves stay green. Under LEDs it happens without heat, when lamps are too close or light intensity exceeds what the crop uses (often above about 1,000–1,500 µmol/m²/s for cannabis without added CO₂, far less for lettuce and herbs).',
    symptom_groups: ['leaves', 'flowers'],
    symptoms: ['bleached-top-leaves', 'bleached-buds', 'leaf-edges-curl-up'],
    color_symptoms: ['pale-bleached', 'yellowing'],
    look_alikes: [
      { slug: 'heat-stress', how_to_tell: 'Heat stress shows as wilting and curling across the hot zone with leaf temperature high; bleaching under a cool LED is light.' },
      { slug: 'nitrogen-deficiency', how_to_tell: 'Nitrogen deficiency yellows the lowest leaves first; light burn affects only the top of the canopy.' },
      { slug: 'iron-deficiency', how_to_tell: 'Iron deficiency keeps veins green on all new leaves; light bleaching whitens the whole top leaf and only under the lamps.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Measure PPFD at canopy height and raise or dim lamps to the crop\'s target; even out the canopy so no tops are closer than the rest; plan the daily light integral for the crop.' },
    ],
    abbreviation: 'LB',
  },
  {
    id: 66,
    slug: 'heat-stress',
    name: 'Heat stress',
    scientific_name: null,
    kind: 'disorder',
    category: 'Temperature stress',
    description:
      'Canopy temperatures above about 30 °C make leaf edges curl up (tacoing), leaves droop and tips burn; buds foxtail and loosen, tomato and pepper drop flowers because pollen fails, and lettuce bolts and tip-burns. Hot spots near lamps and poor air movement cause it as much as room temperature.',
    symptom_groups: ['leaves', 'flowers', 'whole-plant'],
    symptoms: ['leaf-edges-curl-up', 'burnt-tips', 'foxtailing', 'flower-fruit-drop', 'limp-papery-wilt'],
    color_symptoms: ['pale-bleached', 'brown-necrotic'],
    look_alikes: [
      { slug: 'light-burn', how_to_tell: 'Light burn bleaches the top leaves under the lamps; heat curls and wilts leaves across the hot zone.' },
      { slug: 'broad-mite', how_to_tell: 'Broad mite damage curls new leaves down and spreads at normal temperatures.' },
      { slug: 'hemp-russet-mite', how_to_tell: 'Russet mite curling goes with dull, rusty leaves and continues after the room cools.' },
      { slug: 'underwatering', how_to_tell: 'Underwatered plants have light, dry pots; heat-stressed plants wilt with moist medium in the hottest hours.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Lower canopy temperature (ventilation, cooling, shading, lamp height, running lamps at night); move air through the canopy; keep VPD in range; water well before hot periods.' },
    ],
    abbreviation: 'HS',
  },
  {
    id: 67,
    slug: 'cold-stress',
    name: 'Cold stress',
    scientific_name: null,
    kind: 'disorder',
    category: 'Temperature stress',
    description:
      'Cold nights and cold roots slow growth and turn leaves and stems purple or red, as phosphorus uptake drops. Chilling-sensitive crops (basil, cucumber, pepper, tropical ornamentals) get dark, glassy or water-soaked patches below about 10 °C, which later die. Cold air falling from vents or cold floors is a common cause.',
    symptom_groups: ['leaves', 'stems', 'whole-plant'],
    symptoms: ['glassy-dark-patches', 'purple-stems', 'stunted-growth', 'leaves-curl-down'],
    color_symptoms: ['purple-red', 'water-soaked', 'dark-green'],
    look_alikes: [
      { slug: 'phosphorus-deficiency', how_to_tell: 'Phosphorus deficiency purples older leaves gradually with dull blue tones; cold purpling follows a cold spell and fades with warmth.' },
      { slug: 'bacterial-leaf-spot', how_to_tell: 'Chilling patches appear all at once after a cold night on exposed leaves; bacterial spots spread over days with wet leaves.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Keep night temperatures and the root zone within the crop\'s range (roots at 18–22 °C for most crops); lift pots off cold floors; keep plants away from vents and cold glass; ramp temperatures gradually.' },
    ],
    abbreviation: 'CS',
  },
  {
    id: 68,
    slug: 'overwatering',
    name: 'Overwatering',
    scientific_name: null,
    kind: 'disorder',
    category: 'Water stress',
    description:
      'Roots in medium that stays wet run out of oxygen: plants droop with firm, heavy leaves that curl down, lower leaves yellow and growth slows. Fungus gnats, algae and root rot follow. Large pots for small plants, poor drainage and frequent small waterings cause it.',
    symptom_groups: ['whole-plant', 'leaves', 'roots'],
    symptoms: ['heavy-drooping', 'leaves-curl-down', 'older-leaves-yellow', 'medium-stays-wet', 'algae-on-medium'],
    color_symptoms: ['yellowing', 'dark-green'],
    look_alikes: [
      { slug: 'underwatering', how_to_tell: 'Underwatered plants are limp and papery in light, dry pots; overwatered plants are firm and drooping in heavy, wet pots.' },
      { slug: 'nitrogen-toxicity', how_to_tell: 'Nitrogen toxicity claws only the leaf tips of dark, glossy leaves; overwatering droops whole leaves.' },
      { slug: 'pythium-root-rot', how_to_tell: 'If roots are brown and slimy, the overwatering has turned into root rot.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Water by pot weight or substrate moisture, letting the medium dry back between waterings; improve drainage and airflow; match pot size to plant size; water to runoff less often rather than a little often.' },
    ],
    abbreviation: 'OW',
  },
  {
    id: 69,
    slug: 'underwatering',
    name: 'Underwatering',
    scientific_name: null,
    kind: 'disorder',
    category: 'Water stress',
    description:
      'Plants wilt limp and papery, leaf edges brown and pots feel light; the medium shrinks from the pot wall and water runs straight through. Plants recover within hours of watering unless roots have died. Hot days, root-bound plants and blocked drippers cause it.',
    symptom_groups: ['whole-plant', 'roots', 'leaves'],
    symptoms: ['limp-papery-wilt', 'medium-dry-shrunk', 'burnt-tips', 'leaf-drop'],
    color_symptoms: ['yellowing', 'brown-necrotic'],
    look_alikes: [
      { slug: 'overwatering', how_to_tell: 'Overwatered plants droop with firm leaves and wet, heavy pots.' },
      { slug: 'pythium-root-rot', how_to_tell: 'Plants that wilt with moist medium have a root problem, not a water shortage.' },
      { slug: 'salt-burn', how_to_tell: 'Salt-burned plants do not recover after watering and runoff EC is high.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Water thoroughly until some runoff, re-wetting dry coco or peat slowly (with a wetting agent if it repels water); check drippers daily; raise irrigation frequency in hot periods; pot up root-bound plants.' },
    ],
    abbreviation: 'UW',
  },
  {
    id: 70,
    slug: 'ph-too-low',
    name: 'pH too low',
    scientific_name: null,
    kind: 'disorder',
    category: 'pH stress',
    description:
      'A root zone that is too acidic (below about 5.5 in soilless media or 6.0 in soil) limits calcium, magnesium and molybdenum and can make manganese and iron toxic, with brown spotting on leaves and damaged root tips. Acid feeds, heavy ammonium and unbuffered media drift pH down.',
    symptom_groups: ['leaves', 'roots', 'whole-plant'],
    symptoms: ['scattered-brown-spots', 'interveinal-older', 'brown-root-tips', 'mixed-deficiency-signs'],
    color_symptoms: ['brown-necrotic', 'interveinal-yellowing'],
    look_alikes: [
      { slug: 'ph-too-high', how_to_tell: 'High pH yellows new leaves (iron, manganese); low pH gives brown spotting and calcium or magnesium signs. A runoff pH reading settles it.' },
      { slug: 'calcium-deficiency', how_to_tell: 'Calcium shortage may come from low pH: measure runoff pH before adding calcium.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Measure input and runoff pH; raise input pH with a pH-up (potassium hydroxide or bicarbonate); add dolomite lime to soil mixes; use more nitrate and less ammonium nitrogen.' },
    ],
    abbreviation: 'PHL',
  },
  {
    id: 71,
    slug: 'ph-too-high',
    name: 'pH too high',
    scientific_name: null,
    kind: 'disorder',
    category: 'pH stress',
    description:
      'A root zone that is too alkaline (above about 6.5 in soilless media or 7.0 in soil) locks out iron, manganese, zinc, boron and phosphorus, so new leaves yellow between the veins. Hard, alkaline irrigation water and nitrate-only feeds push pH up over time.',
    symptom_groups: ['leaves', 'whole-plant'],
    symptoms: ['interveinal-new', 'new-leaves-pale', 'mixed-deficiency-signs', 'stunted-growth'],
    color_symptoms: ['interveinal-yellowing', 'yellowing'],
    look_alikes: [
      { slug: 'iron-deficiency', how_to_tell: 'Iron deficiency is usually high pH: check runoff pH before adding iron.' },
      { slug: 'ph-too-low', how_to_tell: 'Low pH gives brown spotting and calcium or magnesium signs; a runoff pH reading settles it.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Test irrigation water alkalinity; acidify with phosphoric, nitric or sulfuric acid (handle with care, add acid to water); use some ammonium nitrogen; correct with a flush at the right pH.' },
    ],
    abbreviation: 'PHH',
  },
  {
    id: 72,
    slug: 'wind-physical-damage',
    name: 'Wind and physical damage',
    scientific_name: null,
    kind: 'disorder',
    category: 'Physical damage',
    description:
      'Torn, bruised or rubbed leaves and broken or kinked stems from strong fans, handling, trellising, training and carts. Leaves in a constant fan blast dry out, claw and curl. Wounds let in botrytis and bacteria.',
    symptom_groups: ['leaves', 'stems'],
    symptoms: ['torn-leaves', 'broken-stems', 'leaves-curl-down'],
    color_symptoms: ['brown-necrotic', 'pale-bleached'],
    look_alikes: [
      { slug: 'cabbage-looper', how_to_tell: 'Caterpillar holes have chewed edges and frass; physical damage tears leaves along a line of contact.' },
      { slug: 'nitrogen-toxicity', how_to_tell: 'Wind clawing is limited to leaves in the fan\'s path; nitrogen clawing goes with dark, glossy leaves over the whole plant.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Aim fans to move air through the canopy, not blast it; support heavy branches with trellis or stakes; tape or splint kinked stems; handle plants with care and keep aisles wide.' },
    ],
    abbreviation: 'WD',
  },
  {
    id: 73,
    slug: 'herbicide-injury',
    name: 'Herbicide and chemical injury',
    scientific_name: null,
    kind: 'disorder',
    category: 'Chemical injury',
    description:
      'Growth-regulator herbicides (2,4-D, dicamba, clopyralid, aminopyralid) from drift, contaminated compost or manure or sprayer residues make leaves cup, twist and strap with parallel veins and stems bend. Spray phytotoxicity (oil or sulfur in heat, mixed products, sprays under strong light) burns spots and margins. Many plants show it at once.',
    symptom_groups: ['leaves', 'stems'],
    symptoms: ['narrow-strap-leaves', 'twisted-new-growth', 'leaves-bend-down', 'scattered-brown-spots', 'short-internodes'],
    color_symptoms: ['yellowing', 'brown-necrotic', 'pale-bleached'],
    look_alikes: [
      { slug: 'broad-mite', how_to_tell: 'Broad mite damage starts in patches and spreads; herbicide injury appears on many plants at once after a new medium, compost or spray.' },
      { slug: 'tobacco-mosaic-virus', how_to_tell: 'Virus gives a mosaic and spreads along rows; herbicide injury appears together and new growth slowly grows out of it.' },
      { slug: 'ethylene-injury', how_to_tell: 'Ethylene bends leaves down and drops flowers without strapping or twisting them.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Find the source (new compost or manure, drift, a shared sprayer); bioassay suspect media with bean or tomato seedlings; keep a dedicated sprayer for the crop; never spray oil or sulfur in heat or together; flush media; prune damaged growth once new growth is clean.' },
    ],
    abbreviation: 'HI',
  },
  {
    id: 74,
    slug: 'ethylene-injury',
    name: 'Ethylene injury (poor ventilation)',
    scientific_name: null,
    kind: 'disorder',
    category: 'Chemical injury',
    description:
      'Ethylene gas from badly vented or faulty combustion heaters and CO₂ burners, engine exhaust or ripening fruit makes leaves bend down (epinasty), flowers and buds drop and leaves yellow early. Tomato, pepper, carnation, orchids, petunia and poinsettia are sensitive at very low concentrations.',
    symptom_groups: ['leaves', 'flowers', 'whole-plant'],
    symptoms: ['leaves-bend-down', 'flower-fruit-drop', 'leaf-drop'],
    color_symptoms: ['yellowing'],
    look_alikes: [
      { slug: 'overwatering', how_to_tell: 'Overwatered plants droop in wet media; ethylene bends leaves down in any medium, often after heaters or burners start.' },
      { slug: 'herbicide-injury', how_to_tell: 'Herbicides twist and strap leaves; ethylene only bends them and drops flowers.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Vent combustion heaters outside and service burners; keep engines, exhaust and ripening fruit out of the growing space; ventilate; use ethylene scrubbers in storage; in ornamentals, anti-ethylene treatments (for example 1-MCP) where permitted.' },
    ],
    abbreviation: 'ETH',
  },
  {
    id: 75,
    slug: 'low-light',
    name: 'Low light (stretching)',
    scientific_name: null,
    kind: 'disorder',
    category: 'Light stress',
    description:
      'Too little light makes stems long and thin with wide gaps between nodes, leaves thin and pale, and flowers small and airy. Seedlings and clones under weak lamps, winter greenhouses and shaded lower canopies show it.',
    symptom_groups: ['stems', 'whole-plant', 'flowers'],
    symptoms: ['stretched-stems', 'pale-whole-plant', 'small-buds-poor-yield', 'foxtailing'],
    color_symptoms: ['pale-bleached'],
    look_alikes: [
      { slug: 'heat-stress', how_to_tell: 'Warm temperatures also stretch plants; measure light (PPFD, daily light integral) and temperature to see which.' },
      { slug: 'nitrogen-deficiency', how_to_tell: 'Nitrogen deficiency yellows old leaves first; low light pales the whole plant and stretches it.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Raise PPFD and daily light integral to the crop\'s target (lower lamps, add supplemental light in winter); space plants; prune lower growth that gets no light; in ornamentals a cool drop at dawn or days no warmer than nights (negative DIF) also limits stretching.' },
    ],
    abbreviation: 'LL',
  },
  {
    id: 76,
    slug: 'oedema',
    name: 'Oedema (intumescence)',
    scientific_name: null,
    kind: 'disorder',
    category: 'Water stress',
    description:
      'Small water-soaked blisters on leaf undersides that burst and turn corky tan or brown. Roots take up more water than leaves transpire: warm, wet media with cool, humid air and low light. Ivy geranium, tomato, pepper, cabbage and sweet potato are prone; tomato grown under LEDs without UV often shows it.',
    symptom_groups: ['leaves'],
    symptoms: ['leaf-blisters', 'older-leaves-yellow'],
    color_symptoms: ['water-soaked', 'brown-necrotic'],
    look_alikes: [
      { slug: 'bacterial-leaf-spot', how_to_tell: 'Bacterial spots are flat and spread in wet conditions; oedema bumps are raised, corky and do not spread from plant to plant.' },
      { slug: 'rust', how_to_tell: 'Rust pustules release coloured powder when rubbed; oedema bumps do not.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Water in the morning and let media dry back; lower humidity and move air; raise light; on tomato under LEDs, adding a little UV or far-red light has reduced it.' },
    ],
    abbreviation: 'OE',
  },
  {
    id: 77,
    slug: 'spray-residue',
    name: 'Spray or hard-water residue',
    scientific_name: null,
    kind: 'disorder',
    category: 'Residue',
    description:
      'White or grey deposits left on leaves by hard water, fertiliser salts, foliar feeds or spray products (bicarbonates, kaolin clay, sulfur, soaps), or dust. They appear right after a spray or misting, wipe off and do not grow, but they block light and can be mistaken for powdery mildew.',
    symptom_groups: ['leaves'],
    symptoms: ['deposits-wipe-off'],
    color_symptoms: ['white-powder', 'pale-bleached'],
    look_alikes: [
      { slug: 'powdery-mildew', how_to_tell: 'Powdery mildew spreads over days, returns after wiping and shows thread-like growth under a 10× lens; residue wipes off for good and matches where the spray landed.' },
      { slug: 'two-spotted-spider-mite', how_to_tell: 'Mite stipples are inside the leaf and do not wipe off.' },
    ],
    solutions: [
      { kind: 'cultural', text: 'Spray with RO or soft water; use the label rate and a fine mist; spray when leaves will dry quickly, away from strong light; rinse residues off young plants before they block light.' },
    ],
    abbreviation: 'RES',
  },
];
