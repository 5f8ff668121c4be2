// The mentalmj replay viewer: asks the node for one frame of the record
// at a time (/api/frame) and draws it with the live table's code
// (TablePage.show from app.js), adding the navigation, the seats' open
// hands and each kyoku's verification. The position lives in the URL
// fragment: #k=KYOKU&a=STEP[&v=SEAT].
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const T = Tiles.svg;
  const t = I18n.t;
  let index = null, frame = null, pos = { k: 0, a: 0, v: -1 }, busy = false, pending = null;

  function parseHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    const n = (x, d) => (p.has(x) && /^-?\d+$/.test(p.get(x)) ? Number(p.get(x)) : d);
    return { k: n("k", 0), a: n("a", 0), v: n("v", index && index.owner >= 0 ? index.owner : -1) };
  }

  async function get(url) {
    const r = await fetch(url, { cache: "no-store" });
    if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
    return r.json();
  }

  async function go(p) {
    if (busy) { pending = p; return; }
    busy = true;
    try {
      frame = await get(`/api/frame?k=${p.k}&a=${p.a}&view=${p.v}`);
      pos = { k: frame.k, a: frame.a, v: frame.view };
      const h = `#k=${pos.k}&a=${pos.a}` + (pos.v >= 0 ? `&v=${pos.v}` : "");
      if (location.hash !== h) history.replaceState(null, "", h);
      draw();
    } catch (e) {
      $("status").textContent = "cannot load this moment: " + e.message;
      document.body.dataset.error = e.message;
    } finally {
      busy = false;
      if (pending) { const q = pending; pending = null; go(q); }
    }
  }

  function draw() {
    TablePage.show(frame);
    // The live table's end-of-hand screen says the next hand starts by
    // itself; here the reader moves on.
    const lastKyoku = frame.k === frame.kyokus - 1;
    for (const c of document.querySelectorAll("#overlay .close")) c.textContent = t(lastKyoku ? "viewer.last_kyoku" : "viewer.next_kyoku");
    document.body.dataset.k = frame.k;
    document.body.dataset.a = frame.a;
    document.body.dataset.view = frame.view;
    document.body.dataset.self = frame.self;
    const rel = (seat) => (seat - frame.self + 4) % 4;
    // Every seat's concealed hand (all open), or its backs (a seat's view).
    for (let i = 0; i < (frame.players || 4); i++) {
      if (i === frame.self) continue;
      const el = $("seat-" + rel(i));
      const o = (frame.open || []).find((x) => x.seat === i);
      const div = document.createElement("div");
      div.className = "openhand";
      div.dataset.seat = i;
      if (o) {
        div.dataset.tiles = o.tiles.concat(o.drawn >= 0 ? [o.drawn] : []).join(",");
        div.innerHTML = o.tiles.map((t) => T(t)).join("") + (o.drawn >= 0 ? `<span class="gap"></span>${T(o.drawn)}` : "");
      } else {
        div.dataset.tiles = "";
        div.innerHTML = Array(frame.seats[i].concealed).fill(T(-1)).join("");
      }
      el.insertBefore(div, el.children[1] || null);
    }
    // Sanma: the norths set aside (kita), beside each seat's melds (the
    // bottom seat's are beside its hand).
    (frame.nukidora || []).forEach((ns, i) => {
      if (!ns || !ns.length) return;
      const m = rel(i) === 0 ? $("hand").querySelector(".mymelds") : $("seat-" + rel(i)).querySelector(".melds");
      if (m) m.insertAdjacentHTML("beforeend", `<span class="kita" title="nukidora (kita)" data-count="${ns.length}">${ns.map((t) => T(t)).join("")}</span>`);
    });
    const k = index.kyoku[frame.k];
    $("pos").innerHTML = t("viewer.pos", frame.k + 1, frame.kyokus, `<b>${frame.a}</b>`, frame.steps - 1) +
      (frame.stopped ? `<div class="stopped">${esc(frame.stopped)}</div>` : "");
    const v = $("verify");
    v.className = frame.verified ? "ok" : /MISMATCH|FAILED|not completed/.test(frame.verification) ? "bad" : "none";
    // The verification in the page's language (verificationMsg).
    const verification = frame.verificationMsg && I18n.lang !== "en" ? I18n.say(frame.verificationMsg) : frame.verification;
    v.textContent = (frame.verified ? "✔ " : "") + verification;
    if (!index.audited) v.insertAdjacentHTML("beforeend", `<div class="pointer" id="audit-pointer">${esc(t("viewer.no_audit"))}</div>`);
    // The end-of-hand screen marks a verified wall ✔ and a failed one ✘;
    // a record that cannot be verified (no seed, no keys) is neither.
    for (const a of document.querySelectorAll("#overlay .audit")) {
      if (v.className === "none") { a.className = "audit none"; a.textContent = verification; }
    }
    $("kyoku").value = String(frame.k);
    $("view").value = String(frame.view);
    $("preva").disabled = frame.k === 0 && frame.a === 0;
    $("prevk").disabled = frame.k === 0 && frame.a === 0;
    $("nexta").disabled = frame.k === frame.kyokus - 1 && frame.a === frame.steps - 1;
    $("nextk").disabled = frame.k === frame.kyokus - 1 && frame.a === frame.steps - 1;
    document.title = `${TableWords.roundName(k.round)} ${t("honba", k.honba)} · ${frame.a} — mentalmj`;
  }

  function step(d) {
    if (!frame) return;
    let { k, a, v } = pos;
    a += d;
    if (a < 0) { if (k === 0) return; k--; a = index.kyoku[k].steps - 1; }
    else if (a >= index.kyoku[k].steps) { if (k === index.kyoku.length - 1) return; k++; a = 0; }
    go({ k, a, v });
  }
  function kyoku(d) {
    if (!frame) return;
    let k = pos.k + d;
    if (d < 0 && pos.a > 0) k = pos.k; // ↑ first goes back to the deal of this kyoku
    if (k >= index.kyoku.length) { go({ k: pos.k, a: index.kyoku[pos.k].steps - 1, v: pos.v }); return; }
    go({ k: Math.max(0, k), a: 0, v: pos.v });
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "SELECT") return;
    const f = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), ArrowUp: () => kyoku(-1), ArrowDown: () => kyoku(1) }[ev.key];
    if (f) { ev.preventDefault(); f(); }
  });
  $("preva").onclick = () => step(-1);
  $("nexta").onclick = () => step(1);
  $("prevk").onclick = () => kyoku(-1);
  $("nextk").onclick = () => kyoku(1);
  $("kyoku").onchange = () => go({ k: Number($("kyoku").value), a: 0, v: pos.v });
  $("view").onchange = () => go({ k: pos.k, a: pos.a, v: Number($("view").value) });
  window.addEventListener("hashchange", () => go(parseHash()));

  (async () => {
    try {
      index = await get("/api/record");
    } catch (e) {
      $("status").textContent = "cannot load the record: " + e.message;
      document.body.dataset.error = e.message;
      return;
    }
    $("record").innerHTML = `${esc(index.file.split("/").pop())}<br><small>${esc(index.format)}, ${index.players} players, ${index.kyoku.length} kyoku${index.owner >= 0 ? `, ${esc(index.names[index.owner])}'s view (private hands)` : ""}</small>`;
    $("kyoku").innerHTML = index.kyoku.map((k, i) => `<option value="${i}">${i + 1}. ${esc(TableWords.roundName(k.round))}-${k.honba}${k.verified ? " ✔" : ""}</option>`).join("");
    const views = index.owner >= 0 ? [[index.owner, t("viewer.view_of", index.names[index.owner])]]
      : [[-1, t("viewer.all_open")]].concat(index.names.map((n, i) => [i, t("viewer.view_of", n || "seat " + i)]));
    for (const id of ["prevk", "preva", "nexta", "nextk"]) $(id).title = t("viewer." + id);
    $("help").textContent = t("viewer.help");
    $("view").innerHTML = views.map(([v, l]) => `<option value="${v}">${esc(l)}</option>`).join("");
    $("notes").innerHTML = (index.notes || []).map((n) => `<li>${esc(n)}</li>`).join("");
    go(parseHash());
  })();
})();
