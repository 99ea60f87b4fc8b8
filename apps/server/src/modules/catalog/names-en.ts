/**
 * English names of the national reference data that the open pages show (ADR 020 keeps industries
 * and regions Chinese-only until a full English import): the 20 sections (门类) of GB/T 4754-2017
 * by letter, in the standard's own English titles, and the 34 provincial-level divisions of
 * GB/T 2260 by their first two digits. One home, so every answer with `language=eng` uses the same
 * names; a code not listed keeps its Chinese name.
 */
import type { Lang } from '../../platform/i18n.js';

export const SECTION_NAMES_EN: Readonly<Record<string, string>> = {
  A: 'Agriculture, forestry, animal husbandry and fishery',
  B: 'Mining',
  C: 'Manufacturing',
  D: 'Production and supply of electricity, heat, gas and water',
  E: 'Construction',
  F: 'Wholesale and retail trades',
  G: 'Transport, storage and post',
  H: 'Accommodation and catering',
  I: 'Information transmission, software and information technology services',
  J: 'Finance',
  K: 'Real estate',
  L: 'Leasing and business services',
  M: 'Scientific research and technical services',
  N: 'Management of water conservancy, environment and public facilities',
  O: 'Resident services, repair and other services',
  P: 'Education',
  Q: 'Health and social work',
  R: 'Culture, sports and entertainment',
  S: 'Public management, social security and social organization',
  T: 'International organizations',
};

/** By the code's first two digits (`44` for 440000 广东省). */
export const PROVINCE_NAMES_EN: Readonly<Record<string, string>> = {
  '11': 'Beijing',
  '12': 'Tianjin',
  '13': 'Hebei',
  '14': 'Shanxi',
  '15': 'Inner Mongolia',
  '21': 'Liaoning',
  '22': 'Jilin',
  '23': 'Heilongjiang',
  '31': 'Shanghai',
  '32': 'Jiangsu',
  '33': 'Zhejiang',
  '34': 'Anhui',
  '35': 'Fujian',
  '36': 'Jiangxi',
  '37': 'Shandong',
  '41': 'Henan',
  '42': 'Hubei',
  '43': 'Hunan',
  '44': 'Guangdong',
  '45': 'Guangxi',
  '46': 'Hainan',
  '50': 'Chongqing',
  '51': 'Sichuan',
  '52': 'Guizhou',
  '53': 'Yunnan',
  '54': 'Tibet',
  '61': 'Shaanxi',
  '62': 'Gansu',
  '63': 'Qinghai',
  '64': 'Ningxia',
  '65': 'Xinjiang',
  '71': 'Taiwan',
  '81': 'Hong Kong',
  '82': 'Macao',
};

/** A section's name in `lang`: the English title, else the Chinese of record. */
export const sectionName = (lang: Lang, code: string, zh: string): string =>
  (lang === 'en' && SECTION_NAMES_EN[code]) || zh;

/** A province's name in `lang` by its code (two or six digits): the English name, else the Chinese. */
export const provinceName = (lang: Lang, code: string, zh: string): string =>
  (lang === 'en' && PROVINCE_NAMES_EN[code.slice(0, 2)]) || zh;
