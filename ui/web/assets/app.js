// The mentalmj table page: draws the node's snapshots and sends back the
// option the player picks. It decides nothing; the node checks every
// action.
"use strict";
window.addEventListener("error", (ev) => { document.body.dataset.error = ev.message + " at " + ev.lineno + ":" + ev.colno; });
(() => {
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const T = Tiles.svg;
  const t = I18n.t;
  // wind, roundName and tileWord put the node's English words into the
  // page's language: "East" → 東, "East 1" → 東1局, a tile's name ("3z")
  // → its face's name (西).
  const wind = (w) => (I18n.has("wind." + w) ? t("wind." + w) : w);
  // who puts the seat wind of a name from the node ("alice (West)") in
  // the page's language.
  const who = (n) => String(n || "").replace(/\((East|South|West|North)\)/g, (_, w) => "(" + wind(w) + ")");
  function roundName(r) {
    const m = /^(East|South|West|North) (\d+)$/.exec(r || "");
    return m ? t("round", wind(m[1]), Number(m[2])) : (r || "");
  }
  let snap = null, ws = null, mode = null, closedHand = 0, reopened = false, closedStandings = false;
  // A hand's result is shown whole, over the table, from the hand's end
  // until the player dismisses it or the node deals the next hand (the
  // node holds the deal for it: Snapshot resultUntil); "last hand" shows
  // it again until closed or until a decision comes.

  // pending holds what the player sent while the socket was down (a
  // dropped connection, the node restarting its server): the last act,
  // answer and dismiss, sent as soon as the page is connected again, so a
  // click in the gap is not lost. The node checks each against what is
  // open then: a choice for a decision it has since closed (acted on the
  // clock) gets a notice and changes nothing.
  let pending = [];
  function connect() {
    ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => {
      const q = pending;
      pending = [];
      for (const m of q) ws.send(JSON.stringify(m));
      document.body.dataset.pending = 0;
    };
    ws.onmessage = (ev) => {
      const t0 = performance.now();
      show(JSON.parse(ev.data));
      const seq = snap.seq;
      requestAnimationFrame(() => send({ type: "ack", seq, page: performance.now() - t0 }));
    };
    ws.onclose = () => {
      $("status").textContent = t("status.lost");
      document.body.dataset.state = "disconnected";
      setTimeout(connect, 1000);
    };
  }
  function show(s) {
    snap = s;
    // Go encodes empty lists as null.
    for (const k of ["dora", "myHand", "waits", "feed", "hands"]) snap[k] = snap[k] || [];
    for (const x of snap.seats) { x.river = x.river || []; x.melds = x.melds || []; }
    render();
  }
  function send(m) {
    if (ws && ws.readyState === 1) { ws.send(JSON.stringify(m)); return; }
    if (m.type === "ack") return; // a new connection gets a new snapshot
    pending = pending.filter((p) => p.type !== m.type).concat([m]);
    document.body.dataset.pending = pending.length;
  }
  function act(opt) {
    if (!snap.decision) return;
    mode = null;
    send({ type: "act", decision: snap.decision.id, option: opt.id });
  }

  const rel = (seat) => (seat - snap.self + 4) % 4; // 0 me, 1 right, 2 top, 3 left
  const opts = (kinds) => (snap.decision ? snap.decision.options.filter((o) => kinds.includes(o.kind)) : []);

  function meldHTML(m) {
    if (m.type === "ankan") {
      return `<span class="meld">${m.tiles.map((t, i) => T(i === 0 || i === 3 ? -1 : t)).join("")}</span>`;
    }
    const rest = m.tiles.slice();
    rest.splice(rest.indexOf(m.called), 1);
    rest.sort((a, b) => a - b);
    let added = null;
    if (m.type === "kakan") added = rest.pop();
    const called = T(m.called, { sideways: true, cls: ["called"] }) + (added !== null ? T(added, { sideways: true, cls: ["called", "added"] }) : "");
    const at = m.from === 3 ? 0 : m.from === 2 ? 1 : rest.length;
    const parts = rest.map((t) => T(t));
    parts.splice(at, 0, `<span class="calledpair">${called}</span>`);
    return `<span class="meld" data-type="${m.type}">${parts.join("")}</span>`;
  }

  function riverHTML(river) {
    let rows = [];
    for (let i = 0; i < river.length; i += 6) rows.push(river.slice(i, i + 6));
    if (!rows.length) rows = [[]];
    return rows.map((row) => `<div class="riverrow">${row.map((r) => {
      const cls = []; if (r.tsumogiri) cls.push("tsumogiri"); if (r.called) cls.push("takenaway"); if (r.riichi) cls.push("riichi");
      return T(r.tile, { sideways: r.riichi, cls });
    }).join("")}</div>`).join("");
  }

  // How the node reaches the seat's player (Snapshot SeatView.link; none
  // for the player's own seat and in a replay): one line under the name
  // plate in the node's own words, the whole of it in the tooltip.
  const LINK_ICON = { direct: "⇄", relayed: "⇢", "not connected": "✕", paused: "‖" };
  // linkText is the link in the page's language: the node's own words in
  // English (node.Path.String, as the progress lines print them), else
  // built from the link's fields with the catalogue's link.* messages.
  const LINK_WHY = [[/^their NAT gives a new port/, "new_port_theirs"], [/^your NAT gives a new port/, "new_port_yours"],
    [/^their NAT changes ports/, "changes_theirs"], [/^your NAT changes ports/, "changes_yours"], [/^hole punching is off$/, "off"],
    [/^no public address of ours/, "no_address"], [/^hole punching failed/, "failed"], [/^hole punching$/, "punching"], [/^hole punching soon$/, "soon"]];
  function linkText(l) {
    if (I18n.lang === "en" || !l.state) return l.text || l.state;
    const short = (id) => (id && id.length > 12 ? id.slice(0, 6) + "…" + id.slice(-4) : id || "");
    switch (l.state) {
      case "direct": {
        const how = l.how && I18n.has("link.how." + l.how) ? t("link.how." + l.how) : l.how;
        return t("link.direct", [l.transport, l.family, how].filter(Boolean).join(", "));
      }
      case "relayed": {
        if (l.relayPlayer) return t("link.relayed_player", short(l.relay));
        if (!l.why) return t("link.relayed", short(l.relay));
        const w = LINK_WHY.find(([re]) => re.test(l.why));
        return t("link.relayed_why", short(l.relay), w ? t("link.why." + w[1]) : l.why);
      }
      case "not connected": return t("link.none");
    }
    return l.text || l.state;
  }
  function linkHTML(l) {
    if (!l) return "";
    const state = l.pause ? "paused" : l.state;
    const text = l.pause || linkText(l);
    const title = [l.pause, l.text, l.relay ? "relay " + l.relay : ""].filter(Boolean).join("\n");
    return `<div class="link" data-state="${esc(state)}" title="${esc(title)}"><span class="icon">${LINK_ICON[state] || "?"}</span> ${esc(text)}</div>`;
  }

  // The bottom seat's melds are drawn beside its hand (handHTML), not
  // again under its river.
  function seatHTML(s, i) {
    const badges = [`<span class="wind">${esc(wind(s.wind))}</span>`];
    if (s.dealer) badges.push(`<span class="dealer" title="${esc(t("seat.dealer_title"))}">${esc(t("seat.dealer"))}</span>`);
    const stick = s.riichi ? `<span class="stick" title="${esc(t("seat.riichi"))}">${esc(t("seat.riichi"))}</span>` : "";
    const turn = snap.turn === i ? " turn" : "";
    const to = s.timedOut ? `<span class="to">${esc(t("seat.timed_out", s.timedOut))}</span>` : "";
    const back = s.self || !snap.players ? "" : `<span class="concealed">${esc(t("seat.in_hand", s.concealed))}</span>`;
    return `<header class="${turn}"><span class="name" title="${esc(s.peer)}">${esc(s.name)}${s.self ? esc(t("seat.you")) : ""}</span>${badges.join("")}${snap.players ? `<span class="score" data-score="${s.score}">${s.score}</span>` : ""}${stick}${to}${back}</header>${linkHTML(s.link)}
      ${snap.spectator ? concealedHTML(s, i) : ""}<div class="river" data-count="${s.river.length}">${riverHTML(s.river)}</div>
      <div class="melds">${i === snap.self && !snap.spectator ? "" : s.melds.map(meldHTML).join("")}</div>`;
  }

  // A spectator's table (snap.spectator, `mentalmj watch --ui`) draws
  // every seat's concealed hand: a back for each tile nobody has shown
  // (-1: a spectator holds no key of a concealed tile), the faces once the
  // hand's keys are revealed and audited.
  function concealedHTML(s, i) {
    const hand = s.hand || [];
    const backs = hand.filter((x) => x < 0).length;
    return `<div class="openhand spectated" data-seat="${i}" data-count="${hand.length}" data-backs="${backs}" data-tiles="${hand.filter((x) => x >= 0).join(",")}">${hand.map((x) => T(x)).join("")}</div>`;
  }

  // bannerHTML says that this is a spectator's view, and each audited
  // hand's verdict (✔ verified, ✘ not).
  function bannerHTML() {
    const verdicts = snap.hands.map((h) => `<span class="verdict ${h.auditOK ? "ok" : "bad"}" title="${esc(h.auditMsg && I18n.lang !== "en" ? I18n.say(h.auditMsg) : h.audit)}">${esc(t("spectator.hand_verdict", h.number, h.auditOK ? "✔" : "✘"))}</span>`).join(" ");
    return `<b>${esc(t("spectator.banner"))}</b> <span class="why">${esc(t("spectator.hidden"))}</span>${verdicts ? `<div class="verdicts">${verdicts}</div>` : ""}`;
  }

  function centerHTML() {
    if (snap.state === "connecting" || (snap.state === "dealing" && !snap.round)) {
      // Before the first deal: no scores, no wall.
      return `<div class="round" id="round"></div><div class="hand-no">${esc(statusLine())}</div>`;
    }
    const sticks = `<span>${esc(t("honba", snap.honba))}</span> · <span>${esc(t("kyotaku", snap.kyotaku))}</span>`;
    const dora = snap.dora.map((x) => T(x)).join("");
    return `<div class="round" id="round" data-round="${esc(snap.round || "")}">${esc(roundName(snap.round))}</div><div class="sticks">${sticks}</div>
      <div class="left" id="left">${t("tiles_left", snap.tilesLeft)}</div>
      <div class="dora"><span>${esc(t("dora_indicator"))}</span>${dora}</div>
      <div class="hand-no">${esc(t("hand_no", snap.hand || "-"))}</div>`;
  }

  // The waiting room before the game (the host's page opens at once): who
  // is here, the seats still empty, and the game's settings.
  function roomHTML() {
    const rows = snap.room.map((n) => `<li>${esc(n)}</li>`).join("") + Array(Math.max(0, snap.roomSeats - snap.room.length)).fill(`<li class="empty">…</li>`).join("");
    return `<div class="room" id="room"><h2>${esc(t("room.title"))}</h2><p>${esc(t("room.count", snap.room.length, snap.roomSeats))}</p><ul>${rows}</ul><p class="roomgame">${esc(gameLine())}</p></div>`;
  }

  function handHTML() {
    const d = snap.decision;
    const discards = new Map(), riichis = new Map();
    if (d) for (const o of d.options) {
      // Identical tiles share one option: key by the tile's name.
      if (o.kind === "discard") discards.set(Tiles.name(o.tile), o);
      if (o.kind === "riichi") riichis.set(Tiles.name(o.tile), o);
    }
    const pick = mode === "riichi" ? riichis : discards;
    const tile = (t, n, extra) => {
      const o = pick.get(Tiles.name(t));
      const cls = [o ? "playable" : "", extra || ""].filter(Boolean);
      return `<button class="htile ${cls.join(" ")}" data-tile="${t}" ${o ? `data-option="${o.id}"` : "disabled"} title="${Tiles.name(t)}${n ? " (key " + n + ")" : ""}">${T(t)}<small>${n || ""}</small></button>`;
    };
    let html = snap.myHand.map((t, i) => tile(t, KEYS[i] || "")).join("");
    if (snap.drawn >= 0) html += `<span class="gap"></span>` + tile(snap.drawn, "⏎", "drawn");
    const me = snap.self >= 0 ? snap.seats[snap.self] : null;
    if (me) html += `<span class="mymelds">${me.melds.map(meldHTML).join("")}</span>`;
    return html;
  }

  // KEYS are the keys of the hand's tiles, left to right (the drawn tile
  // is Enter): every tile of a 13-tile hand has one. ← and → move a
  // cursor over the tiles that may be discarded; Enter then discards it.
  const KEYS = "1234567890-=\\";
  let cursor = null; // the position of the cursor among the playable tiles
  const playable = () => [...$("hand").querySelectorAll("button.htile.playable")];
  function moveCursor(step) {
    const n = playable().length;
    if (!n) return;
    cursor = cursor === null ? (step > 0 ? 0 : n - 1) : (cursor + step + n) % n;
    drawCursor();
  }
  function drawCursor() {
    playable().forEach((b, i) => b.classList.toggle("cursor", i === cursor));
  }

  // Tenhou's switches: 自動和了 (win whenever a win is offered), 鳴きなし (pass
  // on every chi, pon and kan offer; a ron is still asked) and ツモ切り
  // (discard each drawn tile at once unless a win is offered). Kept in
  // the browser (localStorage); the node still checks every action.
  const SWITCHES = [["autowin", "auto-win", "自動和了"], ["nocalls", "no calls", "鳴きなし"], ["tsumogiri", "auto-discard", "ツモ切り"]];
  const sw = {};
  for (const [k] of SWITCHES) sw[k] = (() => { try { return localStorage.getItem("mentalmj." + k) === "1"; } catch (e) { return false; } })();
  function switchesHTML() {
    // In the page's language; Tenhou's own name in the tooltip.
    return SWITCHES.map(([k, en, ja]) => `<label class="switch${sw[k] ? " on" : ""}" title="${esc(ja + " (" + en + ")")}"><input type="checkbox" data-switch="${k}"${sw[k] ? " checked" : ""}> ${esc(t("switch." + k))}</label>`).join("");
  }
  let autoDone = 0;
  // auto takes the decision by the switches, once per decision; it
  // reports whether it did.
  function auto() {
    const d = snap.decision;
    if (!d || autoDone === d.id) return false;
    const has = (k) => d.options.find((o) => o.kind === k);
    let pick = null;
    if (sw.autowin) pick = has("tsumo") || has("ron");
    const calls = ["chi", "pon", "daiminkan", "pass"];
    if (!pick && sw.nocalls && has("pass") && d.options.every((o) => calls.includes(o.kind))) pick = has("pass");
    if (!pick && sw.tsumogiri && snap.drawn >= 0 && !has("tsumo")) {
      pick = d.options.find((o) => o.kind === "discard" && Tiles.name(o.tile) === Tiles.name(snap.drawn) && o.tile === snap.drawn) ||
        d.options.find((o) => o.kind === "discard" && Tiles.name(o.tile) === Tiles.name(snap.drawn));
    }
    if (!pick) return false;
    autoDone = d.id;
    act(pick);
    return true;
  }

  const BUTTONS = [
    ["tsumo", "Tsumo", "t"], ["ron", "Ron", "r"], ["riichi", "Riichi", "i"], ["chi", "Chi", "c"], ["pon", "Pon", "p"],
    ["kan", "Kan", "k"], ["kyuushu", "Kyuushu", "q"], ["tenpai", "Tenpai", "y"], ["noten", "Noten", "n"], ["pass", "Pass", "space"],
  ];
  const KAN = ["daiminkan", "ankan", "kakan"];
  function press(kind) {
    const os = kind === "kan" ? opts(KAN) : opts([kind]);
    if (!os.length) return;
    if (kind === "riichi") { mode = mode === "riichi" ? null : "riichi"; render(); return; }
    if (os.length === 1) { act(os[0]); return; }
    mode = mode === kind ? null : kind;
    render();
  }

  function actionsHTML() {
    const d = snap.decision;
    if (!d) return "";
    let html = "";
    for (const [kind, label, key] of BUTTONS) {
      const os = kind === "kan" ? opts(KAN) : opts([kind]);
      if (!os.length) continue;
      const on = mode === kind ? " on" : "";
      html += `<button class="act ${kind}${on}" data-kind="${kind}">${esc(t("act." + kind))} <kbd>${key}</kbd></button>`;
    }
    if (opts(["discard"]).length) html += `<span class="hint">${esc(t(mode === "riichi" ? "hint.riichi" : "hint.discard"))}</span>`;
    return html;
  }

  function variantsHTML() {
    if (mode !== "chi" && mode !== "pon" && mode !== "kan") return "";
    const os = mode === "kan" ? opts(KAN) : opts([mode]);
    return os.map((o, i) => `<button class="variant" data-option="${o.id}">${i + 1}. ${esc(t("act." + (KAN.includes(o.kind) ? "kan" : o.kind)))} ${(o.tiles.length ? o.tiles : [o.tile]).map((x) => T(x)).join("")}</button>`).join("");
  }

  function countdown() {
    const d = snap && snap.decision;
    const el = $("countdown");
    if (!d || !d.deadline) { setHTML(el, ""); return; }
    const now = Date.now();
    const left = Math.max(0, Math.ceil((d.deadline - now) / 1000));
    let text = t("countdown.plain", left);
    if (d.base_deadline && now < d.base_deadline) {
      text = t("countdown.base", Math.ceil((d.base_deadline - now) / 1000), Math.ceil((d.bank_ms || 0) / 1000));
    } else if (d.base_deadline) {
      text = t("countdown.bank", left);
    }
    const def = d.options[d.default];
    setHTML(el, t("countdown", `<span class="${left <= 5 ? "urgent" : ""}">${esc(text)}</span>`, esc(def ? optionWords(def) : t("countdown.default"))));
  }
  // setHTML writes html into el only when it differs from what it last
  // wrote there. A snapshot changes one or two parts of the table (a
  // discard: one seat's river and the feed), and every innerHTML write
  // makes the browser parse, style, lay out and paint that part again; the
  // countdown ticks four times a second and its text changes once
  // (docs/BENCHMARKS.md, "The short test run" and "The table page draws
  // only what changed"). The replay viewer adds its own nodes to some
  // parts after each frame, so in the viewer every part is written.
  const drawn = new WeakMap();
  const viewer = document.body.dataset.viewer !== undefined;
  function setHTML(el, html) {
    if (!viewer && drawn.get(el) === html) return;
    el.innerHTML = html;
    drawn.set(el, html);
  }

  // optionWords names an option in the page's language: "ポン 5p".
  function optionWords(o) {
    const k = KAN.includes(o.kind) ? "kan" : o.kind;
    if (o.kind === "discard") return tileWord(o.tile);
    if (o.kind === "riichi") return t("act.riichi") + " " + tileWord(o.tile);
    return t("act." + k) + (o.tile >= 0 ? " " + tileWord(o.tile) : "");
  }
  // tileWord names a tile: numbers as 5m (0m a red five), honours by
  // their face (東 … 中 in Japanese; East … Red in English).
  function tileWord(id) {
    const n = Tiles.name(id);
    return n.endsWith("z") ? t("tile." + n) : n;
  }
  const kindWord = (k) => (k >= 27 ? t("tile." + (k - 26) + "z") : Tiles.kindName(k));

  // feedWords is a feed event in the page's language: the node's own
  // English line, or in another language the node's message (e.msg: a
  // result, an audit, a notice) or the event rebuilt from its kind, seat
  // and tile (the plays); a fault keeps the node's words.
  function feedWords(e) {
    if (I18n.lang === "en") return e.text;
    if (e.msg) return I18n.say(e.msg); // results, audits, notices: said by the node's message
    const seat = e.seat >= 0 && snap.seats[e.seat] ? `${snap.seats[e.seat].name} (${wind(snap.seats[e.seat].wind)})` : "";
    const tile = e.tile >= 0 ? tileWord(e.tile) : "";
    const tg = / \(tsumogiri\)$/.test(e.text) ? t("feed.tsumogiri") : "";
    let m;
    switch (e.kind) {
      case "discard": return t("feed.discard", seat, tile) + tg;
      case "riichi": return t("feed.riichi", seat, tile) + tg;
      case "draw": return t("feed.draw", tile);
      case "dora": return t("feed.dora", tile);
      case "timeout": return t("feed.timeout", seat);
      case "call":
        m = / calls (chi|pon|daiminkan) on | declares (ankan|kakan) /.exec(e.text);
        if (m) { const k = m[1] || m[2]; return t("feed.call", seat, t("act." + (KAN.includes(k) ? "kan" : k)), tile); }
        return e.text;
      case "hand":
        if ((m = /^hand (\d+): shuffling the wall$/.exec(e.text))) return t("feed.shuffle", Number(m[1]));
        if ((m = /^(\w+ \d+), honba (\d+): (.*) deals$/.exec(e.text))) return t("feed.deals", roundName(m[1]), Number(m[2]), who(m[3]));
        return e.text;
    }
    return e.text;
  }

  // statusWords is the node's status line in the page's language: the
  // waits and the stages of a hand; other lines keep the node's words.
  function statusWords(st) {
    if (I18n.lang === "en" || !st) return st;
    let m;
    if ((m = /^waiting for (.+) (to draw|to play|to answer the discard|to call|to declare tenpai or noten)$/.exec(st))) {
      const names = m[1].split(/, | and /).map((n) => (n === "you" ? t("status.you") : who(n)));
      const list = names.length > 1 ? names.slice(0, -1).join(t("status.comma")) + t("status.and") + names[names.length - 1] : names[0];
      return t("status.waiting", list, t("status." + m[2]));
    }
    if ((m = /^hand (\d+): (.+)$/.exec(st)) && I18n.has("stage." + m[2])) return t("status.hand", Number(m[1]), t("stage." + m[2]));
    if (st === "decrypting a dora indicator in public") return t("status.dora_key");
    return st;
  }

  // gameLine is the table's settings in the page's language (gameMsg).
  function gameLine() {
    return snap.gameMsg && I18n.lang !== "en" ? I18n.say(snap.gameMsg) : (snap.game || "");
  }

  // statusLine is the node's status line in the page's language: its
  // message (statusMsg) when it has one, else statusWords.
  function statusLine() {
    return snap.statusMsg && I18n.lang !== "en" ? I18n.say(snap.statusMsg) : statusWords(snap.status || "");
  }

  function endHTML(h) {
    let body = `<h2>${esc(t("result.title", h.number, roundName(h.round), h.honba))}</h2>`;
    for (const w of h.wins || []) {
      const hand = w.hand.slice(); hand.splice(hand.indexOf(w.winTile), 1);
      const how = w.tsumo ? t("result.tsumo", who(w.name)) : t("result.ron", who(w.name), who(w.fromName));
      const yaku = (y) => (y.id !== undefined && I18n.has("yaku." + y.id) ? t("yaku." + y.id) : y.name);
      const value = w.limit ? t("result.value_limit", w.fu, w.han, w.points, esc(t("limit." + w.limit))) : t("result.value", w.fu, w.han, w.points);
      body += `<div class="win"><h3>${esc(how)}</h3>
        <div class="winhand">${hand.map((x) => T(x)).join("")}<span class="gap"></span>${T(w.winTile, { cls: ["wintile"] })}<span class="mymelds">${(w.melds || []).map(meldHTML).join("")}</span></div>
        <div class="ind"><span class="label">${esc(t("result.dora"))}</span>${w.dora.map((x) => T(x)).join("")}${w.ura && w.ura.length ? `<span class="label ura">${esc(t("result.ura"))}</span>${w.ura.map((x) => T(x)).join("")}` : ""}</div>
        <table class="yaku">${w.yaku.map((y) => `<tr><td>${esc(yaku(y))}</td><td>${esc(y.han >= 13 ? t("result.yakuman") : t("result.han", y.han))}</td></tr>`).join("")}</table>
        <p class="value">${value}</p></div>`;
    }
    if (h.draw) {
      let d = h.draw;
      if (d === "exhaustive draw") d = t("result.exhaustive");
      else if (d === "the hand was aborted") d = t("result.aborted");
      else if (d.startsWith("abortive draw: ")) d = t("result.abortive", I18n.has("abort." + d.slice(15)) ? t("abort." + d.slice(15)) : d.slice(15));
      body += `<h3>${esc(d)}</h3>`;
    }
    for (const x of h.tenpai || []) {
      body += `<div class="tenpai">${esc(t("result.tenpai", who(x.name)))} ${x.hand ? x.hand.map((y) => T(y)).join("") : esc(t("result.hidden"))} ${x.waits && x.waits.length ? esc(t("result.waits", x.waits.map(kindWord).join(" "))) : ""}</div>`;
    }
    if (h.draw === "exhaustive draw" && !(h.tenpai || []).length) body += `<p>${esc(t("result.all_noten"))}</p>`;
    body += `<table class="deltas"><tr><th></th><th>${esc(t("result.before"))}</th><th>${esc(t("result.change"))}</th><th>${esc(t("result.after"))}</th></tr>${h.names.map((n, i) => !n ? "" :
      `<tr><td>${esc(who(n))}</td><td>${h.before[i]}</td><td class="${h.deltas[i] > 0 ? "plus" : h.deltas[i] < 0 ? "minus" : ""}">${h.deltas[i] > 0 ? "+" : ""}${h.deltas[i]}</td><td>${h.after[i]}</td></tr>`).join("")}</table>`;
    if ((h.timedOut || []).length) body += `<p class="to">${esc(t("result.timed_out", h.timedOut.join(", ")))}</p>`;
    body += `<p class="audit ${h.auditOK ? "ok" : "bad"}" id="audit">${h.auditOK ? "✔ " : "✘ "}${I18n.lang === "en" || h.auditMsg ? "" : `<b>${esc(t(h.auditOK ? "result.audit_ok" : "result.audit_bad"))}</b> `}${esc(h.auditMsg && I18n.lang !== "en" ? I18n.say(h.auditMsg) : h.audit)}</p>`;
    body += linksHTML();
    const left = snap.resultUntil ? Math.max(0, Math.ceil((snap.resultUntil - Date.now()) / 1000)) : 0;
    return body + `<p class="close" id="resultclose">${left ? t(snap.lastHand ? "result.standings_next" : "result.next", left) : ""}${esc(t(snap.state === "hand over" && !snap.standings ? "result.go_on" : "result.close"))}</p>`;
  }

  function standingsHTML() {
    return `<h2>${esc(t("standings.title"))}</h2><table class="standings"><tr><th>${esc(t("standings.rank"))}</th><th>${esc(t("standings.player"))}</th><th>${esc(t("standings.score"))}</th><th>${esc(t("standings.points"))}</th></tr>${snap.standings.map((x) =>
      `<tr><td>${x.rank}</td><td title="${esc(x.peer)}">${esc(who(x.name))}</td><td>${x.score}</td><td>${x.points >= 0 ? "+" : ""}${(x.points / 10).toFixed(1)}</td></tr>`).join("")}</table>` + linksHTML() + `<p class="close">${esc(t("standings.close"))}</p>`;
  }

  function linksHTML() {
    const l = snap.links || {};
    const name = (k) => (I18n.has("download." + k) ? t("download." + k) : k);
    return `<p class="links">${Object.keys(l).sort().map((k) => `<a href="${esc(l[k])}" download>${esc(name(k))}</a>`).join(" · ")}</p>`;
  }

  function render() {
    if (!snap) return;
    // The table's red fives (house rules: none, or a second red 5p).
    if (snap.red) { Tiles.RED.clear(); snap.red.forEach((id) => Tiles.RED.add(id)); }
    document.body.dataset.state = snap.state;
    document.body.toggleAttribute("data-spectator", !!snap.spectator);
    const banner = $("banner"); // the spectator's banner: not on every page that draws a table
    if (banner) { banner.hidden = !snap.spectator; setHTML(banner, snap.spectator ? bannerHTML() : ""); }
    document.body.toggleAttribute("data-decision", !!snap.decision);
    document.body.dataset.seq = snap.seq;
    if (!snap.decision) mode = null;
    // In sanma (snap.players 3) seat 3 is not in play: its place stays empty.
    if (snap.self >= 0) for (let i = 0; i < 4; i++) setHTML($("seat-" + rel(i)), i < (snap.players || 4) ? seatHTML(snap.seats[i], i) : "");
    setHTML($("center"), snap.room ? roomHTML() : centerHTML());
    const hand = $("hand");
    setHTML(hand, handHTML());
    hand.dataset.tiles = snap.myHand.concat(snap.drawn >= 0 ? [snap.drawn] : []).join(",");
    if (cursor !== null && cursor >= playable().length) cursor = null;
    drawCursor();
    setHTML($("status"), `<span class="state">${esc(I18n.has("state." + snap.state) ? t("state." + snap.state) : snap.state)}</span> ${esc(statusLine())}`);
    const game = $("game"); // not on every page that draws a table
    if (game) game.textContent = gameLine();
    if (!snap.decision) cursor = null;
    setHTML($("actions"), actionsHTML());
    const swEl = $("switches");
    if (swEl && !swEl.dataset.drawn) { swEl.innerHTML = switchesHTML(); swEl.dataset.drawn = "1"; }

    setHTML($("offer"), snap.offer >= 0 && snap.decision ? t("offer", `${esc(snap.seats[snap.offerFrom].name)} (${esc(wind(snap.seats[snap.offerFrom].wind))})`, T(snap.offer)) : "");
    setHTML($("variants"), variantsHTML());
    $("notice").textContent = snap.noticeMsg && I18n.lang !== "en" ? I18n.say(snap.noticeMsg) : (snap.notice || "");
    let w = "";
    if (snap.waits && snap.waits.length) w = t("waits", esc(snap.waits.map(kindWord).join(" "))) + (snap.furiten ? ` <span class="furiten">${esc(t("furiten"))}</span>` : "");
    setHTML($("waits"), w);
    setHTML($("feed"), snap.feed.slice().reverse().map((e) => `<li class="${e.kind}" data-n="${e.n}">${esc(feedWords(e))}</li>`).join(""));
    setHTML($("links"), linksHTML() + (snap.hands.length ? ` · <a href="#" id="lasthand">${esc(t("links.last_hand"))}</a>` : ""));
    const help = $("help");
    if (help && !help.dataset.viewer) help.textContent = t("help.table");
    countdown();
    const ov = $("overlay");
    const last = snap.hands && snap.hands.length ? snap.hands[snap.hands.length - 1] : null;
    if (snap.decision) reopened = false; // a decision is never under a panel
    ov.className = "";
    if (snap.confirm) {
      // Before the game: the guest accepts or declines the host's game.
      setHTML(ov, `<div class="panel" id="confirm"><h2>${esc(t("confirm.title"))}</h2><p id="confirm-game">${esc(snap.confirmMsg && I18n.lang !== "en" ? I18n.say(snap.confirmMsg) : snap.confirm)}</p>
        <p class="buttons"><button id="accept" class="act">${esc(t("confirm.accept"))}</button> <button id="decline" class="act">${esc(t("confirm.decline"))}</button></p>
        <p class="close">${esc(t("confirm.note"))}</p></div>`);
      ov.hidden = false;
    } else if (snap.standings && !closedStandings) {
      setHTML(ov, `<div class="panel" id="standings">${standingsHTML()}${last ? endHTML(last) : ""}</div>`); ov.hidden = false;
    } else if (last && (reopened || (resultUp(last) && closedHand !== last.number))) {
      setHTML(ov, `<div class="panel" id="endhand">${endHTML(last)}</div>`); ov.hidden = false;
      ov.className = "result";
    } else {
      ov.hidden = true;
    }
    if (document.body.dataset.viewer === undefined) auto();
  }

  // resultUp reports whether hand h's result is the table's news: the
  // hand is over and the next one not yet dealt, or the node holds the
  // deal for it, and the player has not dismissed it.
  function resultUp(h) {
    return snap.dismissed !== h.number && !snap.decision && (snap.state === "hand over" || snap.resultUntil > 0);
  }

  document.addEventListener("change", (ev) => {
    const k = ev.target.dataset && ev.target.dataset.switch;
    if (!k) return;
    sw[k] = ev.target.checked;
    try { localStorage.setItem("mentalmj." + k, sw[k] ? "1" : "0"); } catch (e) { /* private mode: for this page only */ }
    ev.target.closest("label").classList.toggle("on", sw[k]);
    render();
  });
  document.addEventListener("click", (ev) => {
    if (ev.target.id === "lasthand") { ev.preventDefault(); reopened = !snap.decision; closedStandings = true; render(); return; }
    const b = ev.target.closest("button");
    if (snap && snap.confirm) {
      if (b && (b.id === "accept" || b.id === "decline")) send({ type: "answer", accept: b.id === "accept" });
      return;
    }
    if (ev.target.closest("#overlay") && !ev.target.closest("a")) { closeOverlay(); return; }
    if (!b || !snap || !snap.decision) return;
    if (b.dataset.option !== undefined) { act({ id: Number(b.dataset.option) }); return; }
    if (b.dataset.kind) press(b.dataset.kind);
  });
  // closeOverlay closes the panel shown: the standings, or a hand's
  // result (which tells the node the player has read it, so that the
  // next deal need not wait longer).
  function closeOverlay() {
    if (!snap || $("overlay").hidden) return false;
    if ($("standings")) { closedStandings = true; render(); return true; }
    const last = snap.hands && snap.hands.length ? snap.hands[snap.hands.length - 1] : null;
    if (last) { closedHand = last.number; send({ type: "dismiss", hand: last.number }); }
    reopened = false;
    render();
    return true;
  }
  document.addEventListener("keydown", (ev) => {
    if (snap && snap.confirm) return;
    if (ev.key === "Escape") { closeOverlay(); mode = null; render(); return; }
    if (!$("overlay").hidden && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); closeOverlay(); return; }
    if (!snap || !snap.decision) return;
    const k = ev.key.toLowerCase();
    if ((mode === "chi" || mode === "pon" || mode === "kan") && /^[1-9]$/.test(k)) {
      const b = $("variants").querySelectorAll("button")[Number(k) - 1];
      if (b) act({ id: Number(b.dataset.option) });
      return;
    }
    const map = { t: "tsumo", r: "ron", i: "riichi", c: "chi", p: "pon", k: "kan", q: "kyuushu", y: "tenpai", n: "noten", " ": "pass", x: "pass" };
    if (map[k]) { ev.preventDefault(); press(map[k]); return; }
    if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") { ev.preventDefault(); moveCursor(ev.key === "ArrowLeft" ? -1 : 1); return; }
    const i = KEYS.indexOf(ev.key);
    const btns = [...$("hand").querySelectorAll("button.htile:not(.drawn)")];
    if (i >= 0 && btns[i] && !btns[i].disabled) { act({ id: Number(btns[i].dataset.option) }); return; }
    if (k === "enter") {
      const c = cursor !== null ? playable()[cursor] : null;
      if (c) { act({ id: Number(c.dataset.option) }); return; }
      const all = [...$("hand").querySelectorAll("button.htile")];
      const b = $("hand").querySelector("button.drawn:not([disabled])") || all.filter((x) => !x.disabled).pop();
      if (b) act({ id: Number(b.dataset.option) });
    }
  });
  // The result screen's "next hand in N s".
  setInterval(() => { const e = $("resultleft"); if (e && snap && snap.resultUntil) setHTML(e, String(Math.max(0, Math.ceil((snap.resultUntil - Date.now()) / 1000)))); }, 250);
  setInterval(countdown, 250);
  // The replay viewer (package viewer, body data-viewer) draws its frames
  // with this code instead of a live table's WebSocket.
  window.TableWords = { roundName, wind, tileWord };
  if (document.body.dataset.viewer !== undefined) window.TablePage = { show(s) { closedHand = 0; reopened = false; show(s); } };
  else connect();
})();
