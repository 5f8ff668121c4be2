// The pages' messages (package i18n): window.I18N, set by /i18n.js, holds
// every catalogue and the language the player asked for (--lang), if any;
// else the page speaks the browser's language when it has a catalogue,
// else English. T formats a message as Go's fmt does for the verbs the
// catalogues use (%s, %d, %[2]d, %%); a key the language lacks is taken
// from English and noted in I18n.missing; say says a message the node
// built (i18n.Msg) (the tests read it); a key
// English lacks shows as ‹key›, which the tests forbid.
"use strict";
const I18n = (() => {
  const data = window.I18N || { lang: "", catalogs: { en: {} } };
  const has = (c) => !!data.catalogs[c];
  const wanted = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"]).map((x) => String(x).toLowerCase().split(/[-_]/)[0]);
  const lang = data.lang && has(data.lang) ? data.lang : (wanted.find(has) || "en");
  const en = data.catalogs.en || {}, cat = data.catalogs[lang] || {};
  const missing = new Set();
  function format(m, args) {
    let i = 0;
    return m.replace(/%(?:\[(\d+)\])?([sd%])/g, (_, n, v) => (v === "%" ? "%" : String(args[n ? Number(n) - 1 : i++])));
  }
  function t(key, ...args) {
    let m = cat[key];
    if (m === undefined) { m = en[key]; missing.add(key); }
    if (m === undefined) return "‹" + key + "›";
    return format(m, args);
  }
  // say says a message the node built (package i18n's Msg: {key, args},
  // each arg a string, a number or a Msg said first; the key "list" joins
  // its args after the first with the first), as Go's Lang.Say does.
  function say(m) {
    const args = (m.args || []).map((a) => (a && typeof a === "object" && a.key ? say(a) : a));
    if (m.key === "list") return args.slice(1).join(args[0]);
    return t(m.key, ...args);
  }
  document.documentElement.lang = lang;
  return { t, say, lang, missing, has: (key) => cat[key] !== undefined || en[key] !== undefined };
})();
