// web/counts.js is responsible for counted nouns ("1 entity", "2 entities"):
// the one place the page words a count of a thing. Each noun is a plural
// message of the catalogue (counts.*), whose forms the locale's
// Intl.PluralRules picks among (Polish: 1 jednostka, 2 jednostki, 5
// jednostek).
import { t } from "./i18n.js";

// IDS are each noun's message.
const IDS = {
  entity: "counts.entity",
  lesson: "counts.lesson",
  operation: "counts.operation",
  table: "counts.table",
};

// count says n of a noun of IDS: count(1, "entity") → "1 entity".
export function count(n, noun) {
  return t(IDS[noun], { n });
}
