// web/counts.js is responsible for counted nouns ("1 entity", "2 entities"):
// the one place the page words a count, so that a translation replaces
// these forms and Intl.PluralRules picks among them.
import { number } from "./dom.js";

// FORMS are each noun's plural forms, by Intl.PluralRules category.
const FORMS = {
  entity: { one: "entity", other: "entities" },
  lesson: { one: "lesson", other: "lessons" },
  operation: { one: "operation", other: "operations" },
  table: { one: "table", other: "tables" },
};

const rules = new Intl.PluralRules("en-US");

// count says n of a noun of FORMS: count(1, "entity") → "1 entity".
export function count(n, noun) {
  const forms = FORMS[noun];
  return `${number(n)} ${forms[rules.select(n)] ?? forms.other}`;
}
