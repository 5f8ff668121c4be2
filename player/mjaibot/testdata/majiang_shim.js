#!/usr/bin/env node
// An mjai client around @kobalab/majiang-ai, the rule-based AI of 電脳麻将
// (npm install @kobalab/majiang-ai; run with NODE_PATH pointing at that
// node_modules). It translates mjai events (JSON Lines on stdin) into
// majiang-core's messages (kaiju, qipai, zimo, dapai, fulou, gang,
// gangzimo, kaigang) and the AI's answers back into mjai replies on
// stdout. It answers only events with "can_act": true, as Mortal does.
// Results (hora, ryukyoku) are not passed on: the next start_kyoku deals
// afresh. Written for mentalmj's tests and trials; MIT like majiang-ai.
"use strict";

const Majiang = require('@kobalab/majiang-core');
const Player = require('@kobalab/majiang-ai');
const readline = require('readline');

const honours = { E: 'z1', S: 'z2', W: 'z3', N: 'z4', P: 'z5', F: 'z6', C: 'z7' };
const honourNames = Object.fromEntries(Object.entries(honours).map(([k, v]) => [v, k]));

// toMajiang: "5mr" → "m0", "3p" → "p3", "E" → "z1", "?" → "_".
function toMajiang(t) {
    if (t === '?') return '_';
    if (honours[t]) return honours[t];
    return t[1] + (t.length === 3 ? '0' : t[0]);
}
// toMjai: "m0" → "5mr", "p3" → "3p", "z1" → "E".
function toMjai(p) {
    p = p.slice(0, 2);
    if (p[0] === 'z') return honourNames[p];
    return p[1] === '0' ? '5' + p[0] + 'r' : p[1] + p[0];
}
const digit = t => toMajiang(t)[1];
const num = d => (d === '0' ? 5 : +d);

let player = new Player();
let seat = 0, oya = 0;
let reach = [false, false, false, false];
let afterKan = [false, false, false, false];
let pons = [[], [], [], []];   // majiang pon strings per seat
let lastDahai = null;          // {actor, pai} of the tile on offer
let pendingDahai = null;       // our riichi discard, sent after the echo
const l = s => (s - oya + 4) % 4;
const dir = (actor, target) => ({ 3: '-', 2: '=', 1: '+' })[(target - actor + 4) % 4];

function meld(e) {
    const s = toMajiang(e.pai)[0];
    const d = dir(e.actor, e.target);
    if (e.type === 'chi') {
        const parts = e.consumed.map(digit).concat([digit(e.pai) + d]);
        parts.sort((a, b) => num(a[0]) - num(b[0]));
        return s + parts.join('');
    }
    const own = e.consumed.map(digit).sort((a, b) => (a === '0') - (b === '0'));
    return s + own.join('') + digit(e.pai) + d;
}

function reply(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

// answer turns the AI's reply to event e into mjai.
function answer(e, r) {
    if (!r) { reply({ type: 'none' }); return; }
    if (r.dapai) {
        const p = r.dapai;
        const d = { type: 'dahai', actor: seat, pai: toMjai(p), tsumogiri: p.includes('_') };
        if (p.endsWith('*')) { pendingDahai = d; reply({ type: 'reach', actor: seat }); return; }
        reply(d);
    } else if (r.hule) {
        const target = e.type === 'tsumo' ? seat : e.actor;
        reply({ type: 'hora', actor: seat, target: target, pai: e.pai });
    } else if (r.daopai) {
        reply({ type: 'ryukyoku' });
    } else if (r.gang) {
        const m = r.gang, s = m[0];
        if (/[\+\=\-]\d$/.test(m)) {
            const pon = m.slice(0, -1);
            const ds = pon.slice(1).replace(/[\+\=\-]/, '').split('');
            reply({ type: 'kakan', actor: seat, pai: toMjai(s + m.slice(-1)), consumed: ds.map(x => toMjai(s + x)) });
        } else {
            reply({ type: 'ankan', actor: seat, consumed: m.slice(1).split('').map(x => toMjai(s + x)) });
        }
    } else if (r.fulou) {
        const m = r.fulou, s = m[0];
        const called = m.match(/(\d)[\+\=\-]/)[1];
        const rest = m.slice(1).replace(/\d[\+\=\-]/, '').split('').map(x => toMjai(s + x));
        const digits = m.slice(1).replace(/[\+\=\-]/g, '');
        const type = digits.length === 4 ? 'daiminkan' : new Set(digits.replace(/0/g, '5')).size === 1 ? 'pon' : 'chi';
        reply({ type: type, actor: seat, target: lastDahai.actor, pai: toMjai(s + called), consumed: rest });
    } else {
        reply({ type: 'none' });
    }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', line => {
    if (!line.trim()) return;
    const e = JSON.parse(line);
    const act = e.can_act === true;
    let msg = null;
    switch (e.type) {
    case 'start_game':
        seat = e.id;
        player.action({ kaiju: { id: seat, rule: Majiang.rule(), title: '', player: ['', '', '', ''], qijia: 0 } });
        return;
    case 'start_kyoku': {
        oya = e.oya;
        reach = [false, false, false, false];
        afterKan = [false, false, false, false];
        pons = [[], [], [], []];
        const shoupai = [], defen = [];
        for (let m = 0; m < 4; m++) {
            shoupai.push('');
            defen.push(e.scores[(oya + m) % 4]);
        }
        // Shoupai strings want "m123p45z1": group the tiles by suit.
        const own = e.tehais[seat].map(toMajiang);
        const bySuit = { m: '', p: '', s: '', z: '' };
        for (const p of own) bySuit[p[0]] += p[1];
        shoupai[l(seat)] = Object.entries(bySuit).filter(([, v]) => v).map(([k, v]) => k + v).join('');
        msg = { qipai: { zhuangfeng: { E: 0, S: 1, W: 2, N: 3 }[e.bakaze], jushu: e.kyoku - 1, changbang: e.honba,
            lizhibang: e.kyotaku, defen: defen, baopai: toMajiang(e.dora_marker), shoupai: shoupai } };
        break;
    }
    case 'tsumo':
        msg = afterKan[e.actor] ? { gangzimo: { l: l(e.actor), p: toMajiang(e.pai) } } : { zimo: { l: l(e.actor), p: toMajiang(e.pai) } };
        afterKan[e.actor] = false;
        break;
    case 'reach':
        reach[e.actor] = true;
        if (e.actor === seat && act && pendingDahai) { reply(pendingDahai); pendingDahai = null; }
        return;
    case 'dahai': {
        let p = toMajiang(e.pai) + (e.tsumogiri ? '_' : '');
        if (reach[e.actor]) { p += '*'; reach[e.actor] = false; }
        lastDahai = e;
        msg = { dapai: { l: l(e.actor), p: p } };
        break;
    }
    case 'chi': case 'pon': case 'daiminkan': {
        const m = meld(e);
        if (e.type === 'pon') pons[e.actor].push(m);
        if (e.type === 'daiminkan') afterKan[e.actor] = true;
        msg = { fulou: { l: l(e.actor), m: m } };
        break;
    }
    case 'kakan': {
        const s = toMajiang(e.pai)[0], n = num(digit(e.pai));
        const i = pons[e.actor].findIndex(m => m[0] === s && num(m[1]) === n);
        const m = (i >= 0 ? pons[e.actor][i] : s + e.consumed.map(digit).join('') + '=') + digit(e.pai);
        afterKan[e.actor] = true;
        msg = { gang: { l: l(e.actor), m: m } };
        break;
    }
    case 'ankan': {
        const s = toMajiang(e.consumed[0])[0];
        afterKan[e.actor] = true;
        msg = { gang: { l: l(e.actor), m: s + e.consumed.map(digit).sort().reverse().join('') } };
        break;
    }
    case 'dora':
        msg = { kaigang: { baopai: toMajiang(e.dora_marker) } };
        break;
    case 'end_game':
        rl.close();
        return;
    default:
        if (act) reply({ type: 'none' });
        return;
    }
    if (act) player.action(msg, r => answer(e, r));
    else player.action(msg);
});
