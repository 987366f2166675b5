// e2e/enginelocale.test.js is responsible for testing that the engine's
// texts follow the shown locale in Chromium: the page hands the engine the
// locale's catalogue (web/enginelocale.js) and, after a switch, rule cards,
// explanations and generated code comments come out in that language, the
// service's own code and message unchanged, the Learn link in that
// locale's edition; and back in English.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, openPage } from "./harness.js";

let server, browser, page;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ page } = await openPage(browser, server.url));
  await page.evaluate(() => window.tableplay.ready);
});

after(async () => {
  await browser?.close();
  server?.stop();
});

// switchTo shows lang: the switch resolves once the engine has its texts
// (web/enginelocale.js hands them over before the switch shows).
function switchTo(lang) {
  return page.evaluate(async (lang) => {
    const i18n = await import(new URL("web/i18n.js", location.href).href);
    await i18n.load(lang);
  }, lang);
}

function engineTexts() {
  return page.evaluate(() => {
    const card = tableplay.validateTableName("1abc").violations[0];
    const range = tableplay.explainFilter("PartitionKey eq 'a'").keyRange.statement;
    const code = tableplay.codeFor({ kind: "insert", table: "People", entity: { PartitionKey: "p", RowKey: "r", properties: [] } }, "python").code;
    return { card, range, comment: code.split("\n")[0] };
  });
}

test("the engine writes its texts in the shown locale, and the service's words stay English", async () => {
  const en = await engineTexts();
  assert.equal(en.card.rule.statement, "A table name starts with a letter, not a digit.");
  assert.match(en.card.rule.docUrl, /\/en-us\//);
  assert.match(en.range, /^Scans one partition/);
  assert.match(en.comment, /^# Runs against /);

  const want = {
    pl: { statement: "Nazwa tabeli zaczyna się od litery, nie od cyfry.", seg: "pl-pl", range: /^Przeszukuje jedną partycję/, comment: /^# Działa z / },
    ja: { statement: "テーブル名は数字ではなく英字で始まります。", seg: "ja-jp", range: /パーティション/, comment: /に対して実行します。$|ローカル エミュレーター/ },
    fr: { statement: "Un nom de table commence par une lettre, pas par un chiffre.", seg: "fr-fr", range: /^Parcourt une seule partition/, comment: /^# S'exécute sur / },
  };
  for (const [lang, w] of Object.entries(want)) {
    await switchTo(lang);
    const got = await engineTexts();
    assert.equal(got.card.rule.statement, w.statement, lang);
    assert.match(got.card.rule.docUrl, new RegExp(`/${w.seg}/`), lang);
    assert.equal(got.card.code, "InvalidResourceName", lang);
    assert.equal(got.card.message, en.card.message, `${lang}: the service's message as sent`);
    assert.match(got.range, w.range, lang);
    assert.match(got.comment, w.comment, lang);
  }
  await switchTo("en");
  assert.deepEqual(await engineTexts(), en);
});
