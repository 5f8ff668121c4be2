// majiang_reference.js: the reference reading of four-player Tenhou mjlogs
// for TestTenhouReference. It converts each log named on the command line
// (plain XML, or gzip when the name ends in .gz) with @kobalab/tenhou-log's
// convlog — Satoshi Kobayashi's converter from Tenhou's mjlog to the
// 電脳麻将 (majiang) paipu, a reading of the format written apart from this
// repository — and prints, one JSON line per log, what a tenhou.net/6 log
// of the game must say, in tenhou.net/6's terms (absolute seats, tile codes
// 11..47, 51..53 for red fives):
//
//   {"file": path, "kyoku": [{
//      "round": [kyoku, honba, riichi sticks],
//      "scores": start scores by seat (points),
//      "dora": the dora indicators in order, "ura": the ura indicators of
//      the first win that shows them (else []),
//      "haipai": each seat's 13 tiles, sorted by code,
//      "draws": each seat's drawn tiles in order (rinshan draws included),
//      "discards": each seat's discards in order as [tile, tsumogiri 0/1,
//      riichi declaration 0/1],
//      "result": "和了", "流局" or the draw's name,
//      "wins": [{"who", "from", "deltas"}] (one per winner, in order),
//      "deltas": a draw's score changes by seat (zeros when none)}],
//    "final": {"scores": by seat in points, "points": by seat}}
//
// or {"file": path, "error": text}. NODE_PATH must name a node_modules
// directory holding @kobalab/tenhou-log (.ci/run installs 1.3.0).
"use strict";

const fs = require("fs");
const zlib = require("zlib");
const convlog = require("@kobalab/tenhou-log");

// code maps a majiang tile ("m5", "p0" for the red five, "z7") to its
// tenhou.net/6 code.
function code(t) {
    const suit = "mpsz".indexOf(t[0]);
    const n = +t[1];
    if (suit < 0 || isNaN(n)) throw new Error(`tile ${t}`);
    if (n === 0) return 51 + suit;
    return 10 * (suit + 1) + n;
}

// tiles splits a majiang hand string ("m123p0z11") into tile codes.
function tiles(s) {
    const out = [];
    let suit = "";
    for (const ch of s) {
        if ("mpsz".includes(ch)) suit = ch;
        else if (ch >= "0" && ch <= "9") out.push(code(suit + ch));
    }
    return out;
}

function summary(paipu) {
    const out = { kyoku: [] };
    for (const log of paipu.log) {
        const q = log[0].qipai;
        const oya = (paipu.qijia + q.jushu) % 4;
        const abs = (l) => (l + oya) % 4;
        const k = {
            round: [q.zhuangfeng * 4 + q.jushu, q.changbang, q.lizhibang],
            scores: [0, 0, 0, 0],
            dora: tiles(q.baopai),
            ura: [],
            haipai: [[], [], [], []],
            draws: [[], [], [], []],
            discards: [[], [], [], []],
            result: "",
            wins: [],
            deltas: [0, 0, 0, 0],
        };
        for (let l = 0; l < 4; l++) {
            k.scores[abs(l)] = q.defen[l];
            k.haipai[abs(l)] = tiles(q.shoupai[l]).sort((a, b) => a - b);
        }
        for (const e of log.slice(1)) {
            const m = e.zimo || e.gangzimo;
            if (m) k.draws[abs(m.l)].push(code(m.p));
            if (e.dapai) {
                const p = e.dapai.p;
                k.discards[abs(e.dapai.l)].push([code(p), p.includes("_") ? 1 : 0, p.includes("*") ? 1 : 0]);
            }
            if (e.kaigang) k.dora.push(...tiles(e.kaigang.baopai));
            if (e.hule) {
                const h = e.hule;
                const d = [0, 0, 0, 0];
                h.fenpei.forEach((v, l) => { d[abs(l)] = v; });
                k.result = "和了";
                k.wins.push({ who: abs(h.l), from: h.baojia === null ? abs(h.l) : abs(h.baojia), deltas: d });
                if (h.fubaopai && k.ura.length === 0) k.ura = h.fubaopai.map(code);
            }
            if (e.pingju) {
                k.result = e.pingju.name;
                e.pingju.fenpei.forEach((v, l) => { k.deltas[abs(l)] = v; });
            }
        }
        out.kyoku.push(k);
    }
    out.final = {
        scores: (paipu.defen || []).map(Number),
        points: (paipu.point || []).map(Number),
    };
    return out;
}

for (const file of process.argv.slice(2)) {
    try {
        let raw = fs.readFileSync(file);
        if (file.endsWith(".gz")) raw = zlib.gunzipSync(raw);
        // convlog reads names and ranks from the first <UN> and fails on
        // one without dan= (a test fixture's, or a reconnection's): those
        // tags say nothing the comparison uses, so they are left out.
        const xml = raw.toString("utf8").replace(/<UN (?![^>]*dan=)[^>]*\/>/g, "");
        const s = summary(convlog(xml));
        s.file = file;
        process.stdout.write(JSON.stringify(s) + "\n");
    } catch (err) {
        process.stdout.write(JSON.stringify({ file: file, error: String(err && err.stack || err) }) + "\n");
    }
}
